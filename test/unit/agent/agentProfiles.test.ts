// Custom agents as data (src/agent/agentProfiles.ts): which tools a profile's selectors leave, what it adds to the system text.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type AgentProfile, GENERIC_AGENT, agentAllows, agentRefusal, agentSystemText, agentTools, selectorMatches, unknownSelectors } from '../../../src/agent/agentProfiles';
import type { ToolInfo } from '../../../src/agent/messages';

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
