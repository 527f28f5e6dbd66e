// The product's Node floor is one fact in three places: package.json's engines.node (what npm and
// the README promise), the CLI's start-up check (src/cli/nodeFloor.ts) and the Node `npm test` runs
// the suites on (scripts/suiteNode.ts).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { NODE_FLOOR, meetsNodeFloor, nodeFloorMessage } from '../../../src/cli/nodeFloor';

const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { engines: { node: string; vscode: string } };

test('the CLI checks the floor package.json declares', () => {
  const match = /^>=\s*(\d+)\.(\d+)$/.exec(pkg.engines.node);
  assert.ok(match, `engines.node is a plain floor: ${pkg.engines.node}`);
  assert.equal(NODE_FLOOR, `${match[1]}.${match[2]}.0`);
});

test('versions are compared as numbers, part by part', () => {
  assert.equal(meetsNodeFloor('v22.15.0', '22.15.0'), true);
  assert.equal(meetsNodeFloor('v22.9.0', '22.15.0'), false);
  assert.equal(meetsNodeFloor('v22.15.1', '22.15.0'), true);
  assert.equal(meetsNodeFloor('v24.0.0', '22.15.0'), true);
  assert.equal(meetsNodeFloor('v20.20.2', '22.15.0'), false);
  assert.equal(meetsNodeFloor('v100.0.0', '22.15.0'), true);
});

test('an older Node is told in one line what it needs', () => {
  const message = nodeFloorMessage('v20.20.2', '22.15.0');
  assert.match(message, /^sprout-agent needs Node\.js 22\.15 or later; this is Node\.js v20\.20\.2\./);
  assert.equal(message.trimEnd().split('\n').length, 1);
});

test('under npm test, this suite runs on the Node npm test chose for the suites', (t) => {
  const chosen = process.env.SPROUT_SUITE_NODE;
  if (chosen === undefined) return t.skip('run outside npm test (SPROUT_SUITE_NODE unset)');
  assert.equal(process.version, chosen);
  assert.ok(meetsNodeFloor(process.version), `the suites run on ${process.version}, under the floor ${NODE_FLOOR}`);
});
