// Custom agents as data (src/agent/agentProfiles.ts): which tools a profile's selectors leave, what it adds to the system text.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type AgentProfile, GENERIC_AGENT, agentAllows, agentModel, agentRefusal, agentSystemText, agentTools, selectorMatches, unknownSelectors } from '../../../src/agent/agentProfiles';
import type { ToolInfo } from '../../../src/agent/messages';
import { roundRequest } from '../../../src/agent/roundRequest';
import { DEFAULT_SETTINGS } from '../../../src/agent/settings';
import { call, reply } from '../../fakes/ScriptedModelClient';
import { harness, settings } from './harness';

const tool = (server: string, bareName: string): ToolInfo => ({
  server, bareName, qualifiedName: `${server}__${bareName}`, description: '', inputSchema: {}, annotations: {}, isHook: bareName.startsWith('_'),
});
const READ = tool('workspace', 'read_file');
const STOP = tool('tests', '_Stop');
const TOOLS = [READ, tool('workspace', 'write_file'), tool('github', 'read_file'), tool('github', 'list_issues'), STOP];
const profile = (tools?: readonly string[]): AgentProfile => ({ name: 'reviewer', description: 'Reviews', source: '.github/agents/reviewer.agent.md', instructions: 'Review only.', ...(tools ? { tools } : {}) });

test('a server, server/tool, server__tool and a bare name each select what they name, and nothing else', () => {
  const names = (selectors: string[]): string[] => agentTools(profile(selectors), TOOLS).map((t) => t.qualifiedName);
  assert.deepEqual(names(['github']), ['github__read_file', 'github__list_issues', 'tests___Stop']);
  assert.deepEqual(names(['workspace/read_file']), ['workspace__read_file', 'tests___Stop']);
  assert.deepEqual(names(['workspace__write_file']), ['workspace__write_file', 'tests___Stop']);
  assert.deepEqual(names(['read_file']), ['workspace__read_file', 'github__read_file', 'tests___Stop']);
  assert.equal(selectorMatches('work', READ), false, 'a prefix of a server is not the server');
  assert.equal(selectorMatches('workspace/read', READ), false);
});

test('no filter leaves every tool; an empty filter leaves only hooks, which are never the agent\'s to filter', () => {
  assert.equal(agentTools(undefined, TOOLS).length, TOOLS.length);
  assert.equal(agentTools(profile(), TOOLS).length, TOOLS.length);
  assert.deepEqual(agentTools(profile([]), TOOLS).map((t) => t.qualifiedName), ['tests___Stop']);
  assert.equal(agentAllows(profile([]), STOP), true);
});

test('selectors naming no listed tool are reported (a hook does not count as a match); the refusal and system text name the agent', () => {
  assert.deepEqual(unknownSelectors(profile(['github', 'jira', '_Stop', 'tests']), TOOLS), ['jira', '_Stop', 'tests']);
  assert.match(agentRefusal(profile(['github']), 'workspace__write_file'), /workspace__write_file was not run: the agent "reviewer" may use only its own tools \(github\)/);
  assert.match(agentSystemText(profile()), /agent "reviewer"[\s\S]*Review only\./);
  assert.equal(agentSystemText(undefined), '');
  assert.equal(agentSystemText(GENERIC_AGENT), '', 'the generic agent adds no instructions');
});

test('roundRequest: the agent narrows what the mode leaves and adds its instructions after the mode\'s text', () => {
  const ctx = { settings: () => ({ ...DEFAULT_SETTINGS, systemPrompt: 'You are Sprout.' }) };
  const request = roundRequest(ctx, TOOLS, 'agent', { agent: profile(['github']) });
  assert.deepEqual(request.specs.map((s) => s.name), ['github__read_file', 'github__list_issues']);
  assert.equal(request.system, `You are Sprout.\n\n${agentSystemText(profile())}`);
  assert.deepEqual(roundRequest(ctx, TOOLS, 'ask', { agent: profile(['github']) }).specs, [], 'Ask leaves no tool without readOnlyHint: the agent adds none back');
});

test('the loop as a custom agent: only its tools offered, a call it forbids refused before any hook, its name in prompt_started, its notes said once', async () => {
  const h = await harness({
    servers: [{ name: 'fs', tools: { read: () => 'contents', write: () => 'written', _PreToolUse: () => '' } }],
    settings: settings({}, { allowlist: { kind: 'names', names: ['fs'] } }),
    script: [reply.tools(call('fs__write', { path: 'a.ts' }, 'w'), call('fs__read', { path: 'a.ts' }, 'r')), reply.text('reviewed'), reply.text('again')],
  });
  const agent: AgentProfile = { ...profile(['fs/read', 'jira']), notes: ['reviewer.agent.md:3: tool "web" is left out: Sprout has no such tool.'] };
  assert.equal((await h.session.run('review a.ts', undefined, { agent })).reason, 'end_turn');
  assert.deepEqual(h.model.requests[0]?.tools.map((t) => t.name), ['fs__read']);
  assert.match(String(h.model.requests[0]?.messages[0]?.content), /agent "reviewer"[\s\S]*Review only\./);
  const results = Object.fromEntries(h.session.state.history.flatMap((m) => (m.role === 'tool' ? [[m.toolCallId, m.content]] : [])));
  assert.equal(results.w, agentRefusal(agent, 'fs__write'));
  assert.equal(results.r, 'contents');
  assert.deepEqual(h.tools.calls.map((c) => c.tool), ['_PreToolUse', 'read'], 'the write reached no server, not even its _PreToolUse');
  await h.session.run('once more', undefined, { agent });
  assert.deepEqual(h.of('prompt_started').map((e) => e.agent), ['reviewer', 'reviewer']);
  assert.deepEqual(h.of('agent'), [{
    type: 'agent', name: 'reviewer', source: '.github/agents/reviewer.agent.md',
    notes: ['reviewer.agent.md:3: tool "web" is left out: Sprout has no such tool.', '.github/agents/reviewer.agent.md: the agent "reviewer" names tool no server lists (jira); its other tools are offered.'],
  }], 'said once for two prompts');
});

test('agentModel: the file\'s model when reachable (id, name, "Name (vendor)", a Claude alias), else the chat\'s with a note', () => {
  const reachable = [{ id: 'copilot:gpt-5', name: 'GPT-5' }, { id: 'claude-haiku-4.5', name: 'Claude Haiku 4.5' }, { id: 'claude-sonnet-4.5', name: 'Claude Sonnet 4.5' }];
  const as = (model?: string): { model: string; note?: string } => agentModel({ ...profile(), ...(model === undefined ? {} : { model }) }, reachable, 'chat-model');
  assert.deepEqual(as(), { model: 'chat-model' });
  assert.deepEqual(as('GPT-5 (copilot)'), { model: 'copilot:gpt-5' });
  assert.deepEqual(as('claude sonnet 4.5'), { model: 'claude-sonnet-4.5' });
  assert.deepEqual(as('haiku'), { model: 'claude-haiku-4.5' });
  assert.deepEqual(as('opus'), {
    model: 'chat-model',
    note: '.github/agents/reviewer.agent.md: the agent "reviewer" asks for the model "opus", which Sprout cannot reach here; it uses the chat\'s model (chat-model).',
  });
  assert.equal(as('gpt').model, 'chat-model', 'a part of a word is not the model');
});
