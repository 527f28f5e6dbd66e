// Instructions in the loop: the system message carries the files that apply (never a user turn), a
// nested file joins after a tool touched its folder, the `instructions` event says what changed, and
// the hooks see the applied files' paths and hashes (docs/hooks.md#instructions-in-_meta).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { InstructionFile, InstructionSet } from '../../../src/agent/instructions';
import { globMatcher } from '../../../src/servers/common/glob';
import { call, reply } from '../../fakes/ScriptedModelClient';
import { harness } from './harness';

const meta = (m: Record<string, unknown> | undefined): Record<string, unknown> => (m?.['sprout/hook'] ?? {}) as Record<string, unknown>;

function file(path: string, text: string): InstructionFile {
  return { path, scope: 'workspace', format: 'agents', text, sha256: `h-${path}` };
}

const instructions: InstructionSet = {
  files: [file('AGENTS.md', 'ROOT-RULE'), file('pkg/AGENTS.md', 'PKG-RULE')],
  imports: new Map(),
  notes: ['x.mdc line 2: broken'],
  compileGlob: globMatcher,
  root: '/ws',
};

test('the files that apply ride in the system message and reach _SessionStart, _UserPromptSubmit and _Stop', async () => {
  const h = await harness({
    servers: [{ name: 'fs', tools: { read: () => 'ok', _SessionStart: () => '', _UserPromptSubmit: () => '', _Stop: () => '' } }],
    script: [reply.tools(call('fs__read', { path: '/ws/pkg/a.ts' })), reply.text('done')],
  });
  await h.session.run('go', undefined, { instructions });
  const systems = h.model.requests.map((r) => String(r.messages[0]?.content));
  assert.match(systems[0] ?? '', /ROOT-RULE/);
  assert.doesNotMatch(systems[0] ?? '', /PKG-RULE/);
  assert.match(systems[1] ?? '', /ROOT-RULE[\s\S]*PKG-RULE/);
  assert.ok(h.model.requests.every((r) => r.messages.slice(1).every((m) => !String(m.content).includes('ROOT-RULE'))));
  assert.deepEqual(meta(h.tools.callsTo('_SessionStart')[0]?.meta).instructions, [{ path: 'AGENTS.md', sha256: 'h-AGENTS.md' }]);
  assert.deepEqual(meta(h.tools.callsTo('_UserPromptSubmit')[0]?.meta).instructions, [{ path: 'AGENTS.md', sha256: 'h-AGENTS.md' }]);
  assert.deepEqual(meta(h.tools.callsTo('_Stop')[0]?.meta).instructions, [
    { path: 'AGENTS.md', sha256: 'h-AGENTS.md' },
    { path: 'pkg/AGENTS.md', sha256: 'h-pkg/AGENTS.md' },
  ]);
  const events = h.of('instructions');
  assert.deepEqual(events.map((e) => [e.applied.map((a) => a.path), e.notes]), [
    [['AGENTS.md'], ['x.mdc line 2: broken']],
    [['AGENTS.md', 'pkg/AGENTS.md'], []],
  ]);
});

test('a later prompt without instructions keeps the session\'s; a session never given any sends the bare system prompt', async () => {
  const h = await harness({ servers: [], script: [reply.text('one'), reply.text('two')] });
  await h.session.run('first', undefined, { instructions });
  await h.session.run('second');
  assert.match(String(h.model.requests[1]?.messages[0]?.content), /ROOT-RULE/);
  const bare = await harness({ servers: [], script: [reply.text('one')] });
  await bare.session.run('first');
  assert.doesNotMatch(String(bare.model.requests[0]?.messages[0]?.content), /Instructions/);
  assert.equal(bare.of('instructions').length, 0);
});
