// Skills in the loop (src/agent/skills.ts): the core answers sprout__read_skill itself, so no
// `_PreToolUse` hook sees it and it works in Ask mode too; the `skills` event is said when the skills
// offered change, never for a session that has none.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SkillSet } from '../../../src/agent/skills';
import { call, reply } from '../../fakes/ScriptedModelClient';
import { harness } from './harness';

function skills(names: string[], notes: string[] = []): SkillSet {
  return {
    skills: names.map((name) => ({ name, description: `Does ${name}.`, path: `.github/skills/${name}/SKILL.md`, scope: 'workspace' })),
    notes,
    read: (name, file) => (file === undefined ? { text: `BODY-OF-${name}` } : { error: `no file ${file}` }),
  };
}

test('sprout__read_skill is answered by the core: no _PreToolUse (a server tool beside it gets one), allowed in Ask mode', async () => {
  const h = await harness({
    servers: [{ name: 'fs', tools: { read: () => 'ok', _PreToolUse: () => 'DENIED' } }],
    script: [reply.tools(call('sprout__read_skill', { name: 'alpha' }), call('fs__read', { path: 'a' })), reply.text('done'), reply.tools(call('sprout__read_skill', { name: 'alpha' })), reply.text('done')],
  });
  await h.session.run('go', undefined, { skills: skills(['alpha']) });
  assert.equal(h.tools.callsTo('_PreToolUse').length, 1, 'only the server tool was put to the hook');
  const tools = h.model.requests[1]?.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
  assert.match(tools?.[0] ?? '', /BODY-OF-alpha/);
  assert.match(tools?.[1] ?? '', /DENIED/);
  assert.match(String(h.model.requests[0]?.messages[0]?.content), /- alpha: Does alpha\./);
  await h.session.run('again', undefined, { mode: 'ask' });
  assert.match(String(h.model.requests[3]?.messages.filter((m) => m.role === 'tool').at(-1)?.content), /BODY-OF-alpha/, 'kept for later prompts; Ask mode reads it too');
  assert.ok(h.model.requests[2]?.tools?.some((t) => t.name === 'sprout__read_skill'));
});

test('the skills event: none without skills, once per change across prompts', async () => {
  const h = await harness({ servers: [{ name: 'fs', tools: { read: () => 'ok' } }], script: [reply.text('a'), reply.text('b'), reply.text('c'), reply.text('d')] });
  await h.session.run('one', undefined, { skills: skills([]) });
  assert.equal(h.of('skills').length, 0);
  await h.session.run('two', undefined, { skills: skills(['alpha'], ['x/SKILL.md:2: skipped']) });
  await h.session.run('three', undefined, { skills: skills(['alpha'], ['x/SKILL.md:2: skipped']) });
  await h.session.run('four', undefined, { skills: skills([]) });
  assert.deepEqual(h.of('skills').map((e) => [e.skills.map((s) => s.name), e.notes]), [[['alpha'], ['x/SKILL.md:2: skipped']], [[], []]]);
});
