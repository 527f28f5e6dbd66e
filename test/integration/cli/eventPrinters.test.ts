// The CLI's readable output: untrusted model and hook text cannot drive the terminal (escape sequences
// are dropped; the rules are in test/unit/platform/terminalText.test.ts), line events never glue onto streamed text, diagnostics go to stderr, and --json writes
// each event as exactly one parseable line.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RECLASSIFIED_TEXT_NOTE, type AgentEvent } from '../../../src/agent/events';
import { jsonEventPrinter, textEventPrinter } from '../../../src/cli/eventPrinters';
import { noteFor } from '../../../src/extension/chat/chatNotes';

function sink(): { text: string; write(chunk: string): void } {
  return {
    text: '',
    write(chunk: string) {
      this.text += chunk;
    },
  };
}

describe('event printers', () => {
  it('text: a subagent\'s events are indented and named with its id; its diagnostics go to stderr; its name cannot drive the terminal', () => {
    const out = sink();
    const err = sink();
    const print = textEventPrinter(out, err);
    const subagent = { id: 'sub-1', name: 'rev\u001b[31miewer', callId: 'd1' };
    const inner: AgentEvent[] = [
      { type: 'prompt_started', text: 'review x' },
      { type: 'tool_started', callId: 'c1', name: 'fs__read', arguments: '{"path":"x"}' },
      { type: 'hook_objected', hook: '_SubagentStop', server: 'gate', text: 'read y too', rejectionsUsed: 1, maxRejections: 3, scope: 'session' },
      { type: 'server_killed', server: 'gate', reason: 'timed out twice' },
      { type: 'outcome', outcome: { reason: 'end_turn', rounds: 2 } },
    ];
    for (const event of inner) print({ type: 'subagent_event', subagent, event });
    assert.equal(
      out.text,
      '   [sub-1 reviewer] started: review x\n' +
        '   [sub-1 reviewer] -> fs__read {"path":"x"}\n' +
        '   [sub-1 reviewer] !! HOOK OBJECTION from gate (_SubagentStop 1/3):\n' +
        '   [sub-1 reviewer]   | read y too\n' +
        '   [sub-1 reviewer] == end_turn after 2 rounds\n',
    );
    assert.match(err.text, /gate/);
  });

  it('text: streamed reply, then a tool line on a fresh line, objection marked, outcome with unresolved hint', () => {
    const out = sink();
    const err = sink();
    const print = textEventPrinter(out, err);
    const events: AgentEvent[] = [
      { type: 'text_delta', delta: 'Hello' },
      { type: 'text_delta', delta: ' world\u001b[31m' },
      { type: 'tool_started', callId: 'c1', name: 'fs__read', arguments: '{"path":"a.txt"}' },
      { type: 'tool_finished', callId: 'c1', name: 'fs__read', isError: true, text: 'no such file', durationMs: 3 },
      { type: 'hook_objected', hook: '_Stop', server: 'tests', text: 'tests fail:\n  1 failing', rejectionsUsed: 1, maxRejections: 3, scope: 'session' },
      { type: 'server_killed', server: 'tests', reason: 'timed out twice' },
      {
        type: 'outcome',
        outcome: { reason: 'end_turn', rounds: 2, unresolved: { cause: 'declined', objections: [{ server: 'tests', text: 'still red' }] } },
      },
    ];
    for (const event of events) print(event);
    assert.equal(
      out.text,
      'Hello world\n' +
        '-> fs__read {"path":"a.txt"}\n' +
        '<- fs__read (error): no such file\n' +
        '!! HOOK OBJECTION from tests (_Stop 1/3):\n  | tests fail:\n  |   1 failing\n' +
        '== end_turn after 2 rounds\n' +
        '!! the turn ended with an unresolved hook objection (the model declined):\n  tests:\n  | still red\n' +
        '   run again with a new prompt to continue anyway.\n',
    );
    assert.match(err.text, /^sprout-agent: server tests was killed \(timed out twice\); its in-memory state is lost/);
  });

  // A lone </think> (https://github.com/vllm-project/vllm/issues/13125): text streamed as the answer
  // was thinking. A terminal cannot take it back, so a line says so; a pipe never printed it.
  it('text: reclassified text on a terminal gets a line saying it was thinking; piped, it is never printed', () => {
    const events: AgentEvent[] = [
      { type: 'text_delta', delta: 'Two plus' },
      { type: 'text_delta', delta: ' two.' },
      { type: 'text_reclassified', text: 'Two plus two.' },
      { type: 'reasoning_delta', delta: ' Four.' },
      { type: 'text_delta', delta: 'It is 4.' },
      { type: 'message', message: { role: 'assistant', content: 'It is 4.', reasoning: 'Two plus two. Four.' } },
      { type: 'outcome', outcome: { reason: 'end_turn', rounds: 1 } },
    ];
    const terminal = sink();
    const live = textEventPrinter(terminal, sink(), { live: true });
    for (const event of events) live(event);
    assert.equal(terminal.text, `Two plus two.\n${RECLASSIFIED_TEXT_NOTE}\nIt is 4.\n== end_turn after 1 round\n`);
    const pipe = sink();
    const piped = textEventPrinter(pipe, sink());
    for (const event of events) piped(event);
    assert.equal(pipe.text, 'It is 4.\n== end_turn after 1 round\n');
  });

  it('text: the round cap reached with an objection standing names that cause', () => {
    const out = sink();
    textEventPrinter(out, sink())({ type: 'outcome', outcome: { reason: 'max_rounds', rounds: 5, unresolved: { cause: 'max_rounds', objections: [{ server: 'todo', text: '1 open item' }] } } });
    assert.equal(out.text, '== max_rounds after 5 rounds\n!! the turn ended with an unresolved hook objection (max rounds reached):\n  todo:\n  | 1 open item\n   run again with a new prompt to continue anyway.\n');
  });

  it('text: a server wait goes to stderr, then how it ended (ready, or going on without the late ones)', () => {
    const err = sink();
    const print = textEventPrinter(sink(), err);
    print({ type: 'servers_waiting', servers: ['hooks', 'slow'], waitMs: 10_000 });
    print({ type: 'servers_waited', servers: ['hooks', 'slow'], late: ['slow'], waitedMs: 10_000 });
    print({ type: 'servers_waited', servers: ['hooks'], late: [], waitedMs: 1_240 });
    assert.equal(
      err.text,
      'sprout-agent: waiting up to 10 s for MCP servers hooks and slow to be ready\n' +
        'sprout-agent: going on without MCP server slow (not ready after 10 s); it joins when ready\n' +
        'sprout-agent: MCP server hooks was ready after 1.2 s\n',
    );
  });

  it('text and chat: servers behind the tool search are named with their counts and how to choose; what a search loaded is said', () => {
    const err = sink();
    const event: AgentEvent = { type: 'tools_limited', limit: 128, listed: 10_002, servers: [{ server: 'huge', listed: 10_000, offered: 0 }] };
    const print = textEventPrinter(sink(), err);
    print(event);
    print({ type: 'tools_loaded', query: 'deploy\u001b[31m', names: ['huge__deploy.preview'] });
    assert.equal(
      err.text,
      'sprout-agent: the MCP servers list 10002 tools, more than one request may carry (128); the model finds the tools of huge (10000 tools) with the tool search (sprout__search_tools). ' +
        'To choose yourself, name the servers or tools this task needs with --tools, or mark the others "disabled": true in the --mcp-config file\n' +
        'sprout-agent: tool search "deploy" loaded huge__deploy.preview\n',
    );
    const note = noteFor(event);
    assert.equal(note?.level, 'warning');
    assert.match(note?.text ?? '', /list 10002 tools, more than one request to the model may carry \(128\)\. The model finds the tools of huge \(10000 tools\) with the tool search.*tools button in the message box \(Sprout: Pick Tools\)/);
    // A --tools name or a tool set's that no server lists: named (hidden characters visible), the rest apply.
    const unmatched: AgentEvent = { type: 'tools_unmatched', names: ['search/codebase', 'gh\u200b'] };
    print(unmatched);
    assert.match(err.text, /sprout-agent: --tools: no MCP server lists "search\/codebase", "gh\\u200b" .*the other names still apply\n$/);
    assert.equal(noteFor(unmatched)?.level, 'warning');
    assert.match(noteFor(unmatched)?.text ?? '', /names "search\/codebase", "gh\\u200b", which no MCP server lists/);
  });

  it('text: a hook that took too long or failed is worded as the chat words it, for what that hook does', () => {
    const err = sink();
    const print = textEventPrinter(sink(), err);
    const timedOut: AgentEvent = { type: 'hook_timed_out', server: 'guard', hook: '_PreToolUse', consecutive: 1 };
    print(timedOut);
    print({ type: 'hook_timed_out', server: 'ctx', hook: '_UserPromptSubmit', consecutive: 2 });
    print({ type: 'hook_finished', server: 'tests', hook: '_Stop', result: 'error', text: 'runner crashed\n  at main', durationMs: 3 });
    print({ type: 'hook_finished', server: 'tests', hook: '_Stop', result: 'timeout', text: '', durationMs: 2500 });
    assert.equal(
      err.text,
      'sprout-agent: Tool check (_PreToolUse) by guard took too long (1 of 2 in a row stops the server), so it does not block the tool call.\n' +
        'sprout-agent: Prompt check (_UserPromptSubmit) by ctx took too long (2 of 2 in a row stops the server), so it adds nothing.\n' +
        'sprout-agent: Completion check (_Stop) by tests failed, so it counts as no objection: runner crashed at main\n',
    );
    assert.equal(noteFor(timedOut)?.text, 'Tool check by guard took too long (1 of 2 in a row stops the server), so it does not block the tool call.', 'the chat says the same');
  });

  it('json: one parseable line per event, newlines in text escaped', () => {
    const out = sink();
    const print = jsonEventPrinter(out);
    const event: AgentEvent = { type: 'text_delta', delta: 'line one\nline two "quoted"' };
    print(event);
    print({ type: 'round_started', round: 1 });
    const lines = out.text.trimEnd().split('\n');
    assert.equal(lines.length, 2);
    assert.deepEqual(JSON.parse(lines[0] ?? ''), event);
  });

  it('text: a changed request shape is one stderr line, the endpoint, model and provider words neutralised', () => {
    const out = sink();
    const err = sink();
    const print = textEventPrinter(out, err);
    print({ type: 'model_adapted', endpoint: 'http://h\u001b[2J/v1', model: 'm\u001b]0;x\u0007', change: 'sending tool parameter schemas reduced', learnedFrom: 'rejection', said: 'Unknown name\u001b[31m "$schema"\n at tools' });
    print({ type: 'model_adapted', endpoint: 'http://h/v1', model: 'm', change: 'sending tool parameter schemas reduced', learnedFrom: 'memory' });
    assert.equal(out.text, '');
    assert.equal(
      err.text,
      'sprout-agent: model endpoint http://h/v1 (m): sending tool parameter schemas reduced; it said: Unknown name "$schema" at tools (remembered for next time)\n' +
        'sprout-agent: model endpoint http://h/v1 (m): sending tool parameter schemas reduced (remembered)\n',
    );
  });
});
