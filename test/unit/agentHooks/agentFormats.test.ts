// The agent hook formats, both directions: each agent's documented payloads parse into the Sprout hook
// and `_meta` fields they mean, Sprout's decisions come out in the agent's answer format, and the
// other direction (Sprout context -> the agent's payload, the agent's answer -> Sprout hook text)
// reads back what was written. Payload samples follow each agent's docs (cited in the format files).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type AGENT_IDS, HOOK_OUTPUT_PREAMBLE, PayloadError, hookOutputText, type BridgeCall, type SproutAnswer } from '../../../src/agentHooks/agentFormat';
import { AGENT_FORMATS, agentFormat } from '../../../src/agentHooks/agentFormats';
import type { HookName } from '../../../src/agent/events';

const sampleFields: Record<HookName, Record<string, unknown>> = {
  _SessionStart: { source: 'resume' },
  _UserPromptSubmit: { prompt: 'fix the tests' },
  _PreToolUse: { tool: 'Bash', server: 'x', toolName: 'Bash', arguments: { command: 'rm -rf build' }, callId: 'toolu_1' },
  _PostToolUse: { tool: 'Bash', server: 'x', toolName: 'Bash', arguments: { command: 'npm test' }, callId: 'toolu_2', isError: false, result: '3 passed' },
  _Stop: { lastAssistantText: 'All done.' },
  _SubagentStop: { lastAssistantText: 'Found it.', agent: { id: 'agent-7', name: 'reviewer' } },
  _PostCompact: {},
  _SessionEnd: { reason: 'exit' },
};

describe('agent payload -> Sprout hook', () => {
  it('Claude Code: Stop with stop_hook_active and last_assistant_message', () => {
    const call = agentFormat('claude').parse('Stop', {
      session_id: 'abc', transcript_path: '/t.jsonl', cwd: '/w', hook_event_name: 'Stop', permission_mode: 'default', stop_hook_active: true, last_assistant_message: 'Done.',
    });
    assert.deepEqual(call, { hook: '_Stop', sessionId: 'abc', cwd: '/w', fields: { lastAssistantText: 'Done.' }, afterObjection: true });
  });

  // code.claude.com/docs/en/hooks#subagentstop: the Stop fields plus agent_id and agent_type.
  it('Claude Code: SubagentStop is _SubagentStop, naming the subagent', () => {
    const call = agentFormat('claude').parse('SubagentStop', {
      session_id: 'abc', transcript_path: '/t.jsonl', cwd: '/w', hook_event_name: 'SubagentStop', stop_hook_active: false, agent_id: 'agent-7', agent_type: 'reviewer', agent_transcript_path: '/a.jsonl', last_assistant_message: 'Found it.',
    });
    assert.deepEqual(call, { hook: '_SubagentStop', sessionId: 'abc', cwd: '/w', fields: { lastAssistantText: 'Found it.', agent: { id: 'agent-7', name: 'reviewer' } }, afterObjection: false });
    assert.equal(AGENT_FORMATS.codex.events.SubagentStop, undefined, 'only Claude Code maps it');
    assert.deepEqual(agentFormat('claude').answer('SubagentStop', { kind: 'object', text: 'tests fail' }).stdout, `${JSON.stringify({ decision: 'block', reason: 'tests fail' })}\n`);
  });

  it('Claude Code: an MCP tool is split into server and tool; SessionStart after compaction is _PostCompact', () => {
    const pre = agentFormat('claude').parse('PreToolUse', { session_id: 's', cwd: '/w', hook_event_name: 'PreToolUse', tool_name: 'mcp__github__create_issue', tool_input: { title: 't' }, tool_use_id: 'u1' });
    assert.deepEqual(pre.fields, { tool: 'mcp__github__create_issue', server: 'github', toolName: 'create_issue', arguments: { title: 't' }, callId: 'u1' });
    const compact = agentFormat('claude').parse('SessionStart', { session_id: 's', cwd: '/w', hook_event_name: 'SessionStart', source: 'compact' });
    assert.equal(compact.hook, '_PostCompact');
  });

  it('Codex: the same wire, with its nullable transcript path and turn id', () => {
    const call = agentFormat('codex').parse('Stop', {
      session_id: 'c1', transcript_path: null, cwd: '/w', hook_event_name: 'Stop', model: 'gpt', permission_mode: 'default', turn_id: 't1', stop_hook_active: false, last_assistant_message: null,
    });
    assert.deepEqual(call, { hook: '_Stop', sessionId: 'c1', cwd: '/w', fields: { lastAssistantText: '' }, afterObjection: false });
    assert.equal(AGENT_FORMATS.codex.events.SessionEnd, undefined, 'Codex has no session-end hook');
  });

  it('Gemini CLI: AfterAgent is _Stop with prompt_response; BeforeTool is _PreToolUse', () => {
    const stop = agentFormat('gemini').parse('AfterAgent', { session_id: 'g', cwd: '/w', hook_event_name: 'AfterAgent', timestamp: '2026-01-01T00:00:00Z', prompt: 'p', prompt_response: 'r', stop_hook_active: false });
    assert.deepEqual(stop.fields, { lastAssistantText: 'r', prompt: 'p' }, 'the prompt reaches the _Stop hooks too');
    assert.equal(agentFormat('gemini').parse('BeforeTool', { session_id: 'g', cwd: '/w', hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'ls' } }).hook, '_PreToolUse');
  });

  it('Copilot: camelCase payloads, toolArgs as a JSON string', () => {
    const call = agentFormat('copilot').parse('preToolUse', { sessionId: 'k', timestamp: 1, cwd: '/w', toolName: 'bash', toolArgs: '{"command":"ls"}' });
    assert.deepEqual(call.fields, { tool: 'bash', server: 'copilot', toolName: 'bash', arguments: { command: 'ls' }, callId: '' });
  });

  it('Cursor: stop after an aborted loop is not a _Stop Sprout would call', () => {
    const call = agentFormat('cursor').parse('stop', { conversation_id: 'c', generation_id: 'g', hook_event_name: 'stop', workspace_roots: ['/w'], status: 'aborted', loop_count: 0 });
    assert.equal(call.skip, 'the loop ended aborted');
  });

  it('a payload that does not match the documented schema names the field', () => {
    assert.throws(() => agentFormat('claude').parse('Stop', { cwd: '/w', hook_event_name: 'Stop' }), (error: unknown) => error instanceof PayloadError && /session_id/.test(error.message));
    assert.throws(() => agentFormat('claude').parse('Notification', { session_id: 's', cwd: '/w' }), /"Notification" is no Claude Code event Sprout maps/);
  });
});

describe('Sprout decision -> agent answer', () => {
  const objection = hookOutputText('_Stop', [{ server: 'todo', text: '2 items open' }]);

  it('the objection text says it is hook output, then the same envelope Sprout\'s model sees', () => {
    assert.equal(objection, `${HOOK_OUTPUT_PREAMBLE}\n{"hook":"_Stop","server":"todo","text":"2 items open"}`);
  });

  it('each agent blocks a stop in its own words', () => {
    const answer = (id: (typeof AGENT_IDS)[number], event: string) => agentFormat(id).answer(event, { kind: 'object', text: objection });
    assert.deepEqual(JSON.parse(answer('claude', 'Stop').stdout), { decision: 'block', reason: objection });
    assert.deepEqual(JSON.parse(answer('codex', 'Stop').stdout), { decision: 'block', reason: objection });
    assert.deepEqual(JSON.parse(answer('gemini', 'AfterAgent').stdout), { decision: 'deny', reason: objection });
    assert.deepEqual(JSON.parse(answer('copilot', 'agentStop').stdout), { decision: 'block', reason: objection });
    assert.deepEqual(JSON.parse(answer('cursor', 'stop').stdout), { followup_message: objection });
    assert.equal(answer('kiro', 'stop').exitCode, 1, 'Kiro cannot be sent back to work: the user is told');
  });

  it('a denial, injected context and nothing at all', () => {
    assert.deepEqual(JSON.parse(agentFormat('claude').answer('PreToolUse', { kind: 'deny', text: 'no' }).stdout), {
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' },
    });
    assert.deepEqual(JSON.parse(agentFormat('gemini').answer('BeforeTool', { kind: 'deny', text: 'no' }).stdout), { decision: 'deny', reason: 'no' });
    assert.deepEqual(agentFormat('kiro').answer('preToolUse', { kind: 'deny', text: 'no' }), { stdout: '', stderr: 'no\n', exitCode: 2 });
    assert.deepEqual(JSON.parse(agentFormat('claude').answer('UserPromptSubmit', { kind: 'inject', text: 'ctx' }).stdout), {
      hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'ctx' },
    });
    assert.deepEqual(agentFormat('claude').answer('Stop', { kind: 'none' }), { stdout: '', stderr: '', exitCode: 0 });
    assert.deepEqual(JSON.parse(agentFormat('claude').answer('Stop', { kind: 'none', notice: 'left standing' }).stdout), { systemMessage: 'left standing' });
  });
});

describe('the other direction: Sprout context -> agent payload, agent answer -> Sprout hook text', () => {
  for (const format of Object.values(AGENT_FORMATS)) {
    for (const [event, hook] of Object.entries(format.events)) {
      it(`${format.id} ${event}: the payload Sprout builds parses back to the same hook and fields`, () => {
        const call: BridgeCall = { hook, sessionId: 'sess-1', cwd: '/w', fields: sampleFields[hook], ...(hook === '_Stop' ? { afterObjection: true } : {}) };
        const sent = format.payload(event, call);
        const back = format.parse(event, format.id === 'kiro' ? { ...sent, session_id: 'sess-1' } : sent);
        assert.equal(back.hook, hook);
        assert.equal(back.sessionId, 'sess-1');
        // Cursor's tool events are specific (a shell command, a file edit): they carry only their own fields.
        const generic = format.id !== 'cursor' || event === 'beforeMCPExecution';
        if ((hook === '_PreToolUse' || hook === '_PostToolUse') && generic) assert.deepEqual(back.fields.arguments, sampleFields[hook].arguments);
        if (event === 'beforeShellExecution') assert.deepEqual(back.fields.arguments, { command: 'rm -rf build', cwd: '/w' });
        if (hook === '_UserPromptSubmit') assert.equal(back.fields.prompt, 'fix the tests');
      });

      const decided: SproutAnswer | undefined =
        hook === '_Stop' ? { kind: 'object', text: 'keep going' } : hook === '_PreToolUse' ? { kind: 'deny', text: 'not that' } : undefined;
      if (decided === undefined || format.id === 'kiro' && hook === '_Stop') continue;
      it(`${format.id} ${event}: its own ${decided.kind} answer reads back as the same text`, () => {
        assert.equal(format.read(event, format.answer(event, decided)).text, decided.text);
      });
    }
  }

  it('Gemini CLI\'s payloads carry its base `timestamp`, and AfterAgent the user\'s `prompt`, as the real Gemini CLI sends them', () => {
    const gemini = agentFormat('gemini');
    const stop = gemini.payload('AfterAgent', { hook: '_Stop', sessionId: 's', cwd: '/w', afterObjection: false, fields: { lastAssistantText: 'Done.', prompt: 'fix the tests' } });
    assert.equal(stop.prompt, 'fix the tests');
    assert.equal(stop.prompt_response, 'Done.');
    const tool = gemini.payload('BeforeTool', { hook: '_PreToolUse', sessionId: 's', cwd: '/w', fields: sampleFields._PreToolUse });
    for (const sent of [stop, tool]) assert.ok(typeof sent.timestamp === 'string' && new Date(sent.timestamp).toISOString() === sent.timestamp, 'an ISO 8601 time');
    assert.equal(agentFormat('gemini').payload('AfterAgent', { hook: '_Stop', sessionId: 's', cwd: '/w', fields: { lastAssistantText: '' } }).prompt, '', 'a prompt Sprout does not know is empty, never absent');
    assert.equal(agentFormat('claude').payload('Stop', { hook: '_Stop', sessionId: 's', cwd: '/w', fields: { lastAssistantText: '', prompt: 'p' } }).prompt, undefined, 'Claude Code\'s Stop has no prompt');
    assert.equal(agentFormat('claude').payload('Stop', { hook: '_Stop', sessionId: 's', cwd: '/w', fields: { lastAssistantText: '' } }).timestamp, undefined);
  });

  it('a PreToolUse answer that rewrites the input is a denial with its reason (hooks may deny, never rewrite)', () => {
    const reply = agentFormat('claude').read('PreToolUse', {
      stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'safer', updatedInput: { command: 'ls' } } }),
      stderr: '',
      exitCode: 0,
    });
    assert.equal(reply.text, 'safer');
    assert.match(reply.problem ?? '', /never rewrite/);
    assert.deepEqual(reply.rewrite, { command: 'ls' }, 'the input the hook wrote, for the denial to name');
    const copilot = agentFormat('copilot').read('preToolUse', { stdout: JSON.stringify({ permissionDecision: 'allow', modifiedArgs: '{"command":"ls"}' }), stderr: '', exitCode: 0 });
    assert.deepEqual([copilot.text !== '', copilot.rewrite], [true, { command: 'ls' }]);
  });

  it('Gemini CLI\'s tool payload for an MCP tool carries mcp_context with the server and tool, as Gemini CLI sends it', () => {
    const fields = { ...sampleFields._PreToolUse, tool: 'mcp_github_create_issue', mcp: { server: 'github', tool: 'create_issue' } };
    const sent = agentFormat('gemini').payload('BeforeTool', { hook: '_PreToolUse', sessionId: 's', cwd: '/w', fields });
    assert.deepEqual([sent.tool_name, sent.mcp_context], ['mcp_github_create_issue', { server_name: 'github', tool_name: 'create_issue' }]);
    assert.equal(agentFormat('claude').payload('PreToolUse', { hook: '_PreToolUse', sessionId: 's', cwd: '/w', fields }).mcp_context, undefined, 'Claude Code has no mcp_context');
  });

  it('Gemini CLI\'s MCP tool call names its server and tool from mcp_context, where mcp_<server>_<tool> cannot be split', () => {
    const payload = { session_id: 'g', cwd: '/w', hook_event_name: 'BeforeTool', tool_name: 'mcp_my_server_create_issue', tool_input: {}, mcp_context: { server_name: 'my_server', tool_name: 'create_issue' } };
    const call = agentFormat('gemini').parse('BeforeTool', payload);
    assert.deepEqual([call.fields.tool, call.fields.server, call.fields.toolName], ['mcp_my_server_create_issue', 'my_server', 'create_issue']);
    const { mcp_context: _context, ...builtin } = { ...payload, tool_name: 'run_shell_command' };
    assert.deepEqual(agentFormat('gemini').parse('BeforeTool', builtin).fields.server, 'gemini', 'a tool of its own is the agent\'s');
    assert.deepEqual(agentFormat('claude').parse('PreToolUse', { ...payload, hook_event_name: 'PreToolUse' }).fields.server, 'claude', 'only Gemini CLI sends mcp_context');
  });

  it('exit 2 blocks with stderr; other failures are no text and a problem; junk stdout is named', () => {
    assert.deepEqual(agentFormat('claude').read('Stop', { stdout: '', stderr: 'tests fail\n', exitCode: 2 }), { text: 'tests fail' });
    assert.deepEqual(agentFormat('claude').read('Stop', { stdout: '', stderr: 'boom', exitCode: 1 }), { text: '', problem: 'exit 1: boom' });
    assert.deepEqual(agentFormat('claude').read('Stop', { stdout: 'not json', stderr: '', exitCode: 0 }), { text: '', problem: 'stdout is not a JSON object' });
    assert.deepEqual(agentFormat('claude').read('UserPromptSubmit', { stdout: 'plain context\n', stderr: '', exitCode: 0 }), { text: 'plain context' });
    assert.deepEqual(agentFormat('copilot').read('preToolUse', { stdout: '', stderr: '', exitCode: 1 }), { text: 'Denied by a preToolUse hook (exit 1).' }, 'Copilot preToolUse fails closed');
  });
});
