// A tool card's one line: a readable title from the qualified name and the argument the call is about
// (the path of a file tool, the command of run_command), cut to one short line; arguments that are not
// a JSON object show nothing on the line and as they are when expanded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prettyArgs, toolServer, toolSummary, toolTitle } from '../../../src/webview/toolSummary';

test('titles and servers from qualified names', () => {
  assert.equal(toolTitle('workspace__write_file'), 'Write file');
  assert.equal(toolTitle('git__createPullRequest'), 'Create pull request');
  assert.equal(toolServer('workspace__write_file'), 'workspace');
  assert.equal(toolServer('bare'), '');
});

test('the summary is the path, the command, or the first short text argument, on one line', () => {
  assert.equal(toolSummary('{"path":"src/a.ts","content":"x\\ny"}'), 'src/a.ts');
  assert.equal(toolSummary('{"command":"npm test\\n&& echo done","cwd":"."}'), 'npm test');
  assert.equal(toolSummary('{"owner":"me","count":3}'), 'me');
  assert.equal(toolSummary(`{"query":"${'q'.repeat(300)}"}`).length, 160);
  assert.equal(toolSummary('not json'), '');
  assert.equal(toolSummary('[1,2]'), '');
  assert.equal(prettyArgs('{"a":1}'), '{\n  "a": 1\n}');
  assert.equal(prettyArgs('not json'), 'not json');
});
