// The `#` mentions of a prompt (src/agent/contextMentions.ts): which are read, each once, and how
// problems, a folder listing and the working tree's changes are worded and capped for the model.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { capText, changesText, folderText, mentionLabel, parseMentions, problemsText, type Problem } from '../../../src/agent/contextMentions';

describe('context mentions', () => {
  it('finds each mention once, in order, and leaves #file: and words inside others alone', () => {
    const mentions = parseMentions('fix #problems in #folder:src/, and #changes, see #symbol:Cart and #resource:docs:file:///a.md; #problems again, not a#changes, #file:x.ts #terminalLastCommand');
    assert.deepEqual(mentions.map(mentionLabel), ['#problems', '#folder:src', '#changes', '#symbol:Cart', '#resource:docs:file:///a.md', '#terminalLastCommand']);
  });

  it('problems are one line each, errors first, with a count, capped with a note', () => {
    const problems: Problem[] = [
      { file: 'b.ts', line: 3, severity: 'warning', message: 'unused\n  x' },
      { file: 'a.ts', line: 9, severity: 'error', source: 'ts', message: "Cannot find name 'y'." },
      { file: 'a.ts', line: 2, severity: 'error', source: 'ts', message: 'Missing return.' },
    ];
    assert.equal(
      problemsText(problems),
      ['3 problems (2 error, 1 warning):', 'a.ts:2 error [ts] Missing return.', "a.ts:9 error [ts] Cannot find name 'y'.", 'b.ts:3 warning unused x'].join('\n'),
    );
    assert.match(problemsText(problems, 1), /\n\[… 2 more problems not listed\]$/);
    assert.match(problemsText([]), /^No problems/);
  });

  it('a folder listing is sorted and capped, and says when it was cut', () => {
    assert.equal(folderText('src', ['src/b.ts', 'src/a.ts'], false), 'Folder src, 2 files:\nsrc/a.ts\nsrc/b.ts');
    assert.equal(folderText('src', ['src/c', 'src/a', 'src/b'], true, 2), 'Folder src, 2+ files:\nsrc/a\nsrc/b\n[… listing cut at 2 files]');
    assert.match(folderText('empty', [], false), /no files/);
  });

  it('changes give the staged and unstaged diffs and the untracked files, or say why there are none', () => {
    assert.equal(changesText({ staged: '', unstaged: 'diff --git a/x b/x\n', untracked: ['new.ts'] }), 'Unstaged changes:\ndiff --git a/x b/x\n\n\nUntracked files:\nnew.ts');
    assert.match(changesText({ staged: '', unstaged: '', untracked: [] }), /^No changes: the working tree matches HEAD\.$/);
    assert.equal(changesText({ none: 'No changes attached: not a git repository.' }), 'No changes attached: not a git repository.');
  });

  it('long text is cut with a note, never inside a surrogate pair', () => {
    assert.equal(capText('abcdef', 3), 'abc\n[… cut at 3 of 6 characters]');
    assert.equal(capText('a😀b', 2), 'a\n[… cut at 1 of 4 characters]');
  });
});
