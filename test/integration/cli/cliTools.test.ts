// `--tools` and tool sets, driven as a user would: `node dist/cli.js` with the bundled workspace and
// todo servers against the fake OpenAI server, which records every request. The request offers only the
// tools named (a server, server/tool, server__tool or a tool set of .vscode/*.toolsets.jsonc in VS
// Code's format); a call to a tool left out is refused and does not run; hooks are never turned off
// (the todo server's _Stop still runs); a name nothing matches is said and the rest still apply;
// SPROUT_AGENT_TOOL_SEARCH_THRESHOLD moves the tool search's threshold. The user's tool sets (VS Code
// keeps them as *.toolsets.jsonc in the profile's prompts folder; SPROUT_AGENT_USER_TOOL_SETS points
// elsewhere) are read without --trust-workspace; the workspace's set of the same name wins with it.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { assertAllRequestsValid } from '../loop/loopHarness';
import { parseEvents, runCli } from './cliHarness';
import { cliFixture, toolNames } from './cliRun';

const cli = cliFixture('sprout-cli-tools-', {
  setup: (dir) => {
    mkdirSync(join(dir, '.vscode'));
    // VS Code's tool-set format (https://code.visualstudio.com/docs/agent-customization/tool-sets), with a comment and a VS Code built-in name.
    writeFileSync(
      join(dir, '.vscode', 'team.toolsets.jsonc'),
      '{\n  // reading only\n  "reader": { "tools": ["workspace/read_file", "workspace__list_files", "search/codebase"], "description": "Read", "icon": "book" },\n}\n',
    );
  },
  // The user's tool sets: a folder of the test's (never the machine's VS Code profile).
  env: (dir) => ({ MCP_HOOK_SERVERS: 'todo', SPROUT_AGENT_USER_TOOL_SETS: join(dir, 'user-prompts') }),
});

describe('--tools', () => {
  it('offers only the named server and tool; a call to a tool left out is refused with words and does not run; the todo hooks still run', async () => {
    const fake = await cli.startFake({
      responses: [fakeReply.toolCalls([{ name: 'workspace__write_file', arguments: { path: 'notes.txt', content: 'written' } }]), fakeReply.text('I cannot write here.')],
    });
    const run = await runCli(['--json', '--tools', 'todo', '--tools', 'workspace/read_file', 'write notes.txt'], { env: cli.env(fake.url), cwd: cli.dir });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(toolNames(cli.requestAt(0)), ['todo__todo', 'workspace__read_file']);
    const events = parseEvents(run.stdout);
    const finished = events.find((e) => e.type === 'tool_finished');
    assert.ok(finished?.type === 'tool_finished');
    assert.equal(finished.isError, true);
    assert.match(finished.text, /"workspace__write_file" was not run: it is turned off for this chat \(the tools picker, or --tools\)/);
    assert.ok(!existsSync(join(cli.dir, 'notes.txt')), 'the tool did not run');
    assert.match(String(cli.requestAt(1).messages.find((m) => m.role === 'tool')?.content), /turned off/, 'the model reads the refusal');
    assert.ok(events.some((e) => e.type === 'hook_finished' && e.server === 'todo' && e.hook === '_Stop'), 'the todo server\'s _Stop was called');
    assert.deepEqual(events.filter((e) => e.type === 'tools_unmatched'), []);
    assertAllRequestsValid(fake.requests);
  });

  it('a tool set (with --trust-workspace) stands for its tools; names nothing matches are said on stderr, the rest still apply', async () => {
    const fake = await cli.startFake({ responses: [fakeReply.text('ok'), fakeReply.text('ok')] });
    const run = await runCli(['--trust-workspace', '--tools', 'reader,nosuch', 'hi'], { env: cli.env(fake.url), cwd: cli.dir });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(toolNames(cli.requestAt(0)), ['workspace__list_files', 'workspace__read_file']);
    assert.match(run.stderr, /--tools: no MCP server lists "search\/codebase", "nosuch" .*the other names still apply/);
    // Not trusted: the workspace's file is not read, so the set's name matches nothing (said) and the model gets no tool but the hooks' servers'.
    const untrusted = await runCli(['--tools', 'reader,todo', 'hi'], { env: cli.env(fake.url), cwd: cli.dir });
    assert.equal(untrusted.code, 0, untrusted.stderr);
    assert.deepEqual(toolNames(cli.requestAt(1)), ['todo__todo']);
    assert.match(untrusted.stderr, /--tools: no MCP server lists "reader" .*read with --trust-workspace/);
  });

  it('the user\'s tool sets apply without --trust-workspace; the workspace\'s set of the same name wins with it; a broken file is named with its line', async () => {
    const userFolder = join(cli.dir, 'user-prompts');
    mkdirSync(userFolder, { recursive: true });
    writeFileSync(join(userFolder, 'mine.toolsets.jsonc'), '{\n  "reader": { "tools": ["todo/todo"] },\n  "writer": { "tools": ["workspace/write_file"] }\n}\n');
    // A block comment over three lines, then a missing comma on line 5: the note says :5.
    writeFileSync(join(userFolder, 'broken.toolsets.jsonc'), '{\n  /* one\n     two */\n  "a": { "tools": [] }\n  "b": { "tools": [] }\n}\n');
    const fake = await cli.startFake({ responses: [fakeReply.text('ok'), fakeReply.text('ok')] });
    const mine = await runCli(['--tools', 'reader,writer', 'hi'], { env: cli.env(fake.url), cwd: cli.dir });
    assert.equal(mine.code, 0, mine.stderr);
    assert.deepEqual(toolNames(cli.requestAt(0)), ['todo__todo', 'workspace__write_file']);
    assert.match(mine.stderr, /tool sets: .*user-prompts\/broken\.toolsets\.jsonc:5: could not be read/);
    const trusted = await runCli(['--trust-workspace', '--tools', 'reader,writer', 'hi'], { env: cli.env(fake.url), cwd: cli.dir });
    assert.equal(trusted.code, 0, trusted.stderr);
    assert.deepEqual(toolNames(cli.requestAt(1)), ['workspace__list_files', 'workspace__read_file', 'workspace__write_file']);
    rmSync(userFolder, { recursive: true, force: true });
  });

  it('--tools with no name exits 2 saying what to give; nothing is sent', async () => {
    const fake = await cli.startFake({ responses: [] });
    const run = await runCli(['--tools', ' , ', 'hi'], { env: cli.env(fake.url), cwd: cli.dir });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--tools names no server, tool or tool set/);
    assert.equal(fake.chatRequests().length, 0);
  });

  it('SPROUT_AGENT_TOOL_SEARCH_THRESHOLD: with more tools than it, the model is offered the tool search', async () => {
    const fake = await cli.startFake({ responses: [fakeReply.text('ok')] });
    const run = await runCli(['hi'], { env: cli.env(fake.url, { SPROUT_AGENT_TOOL_SEARCH_THRESHOLD: '3' }), cwd: cli.dir });
    assert.equal(run.code, 0, run.stderr);
    const offered = toolNames(cli.requestAt(0));
    assert.ok(offered.includes('sprout__search_tools'), offered.join(', '));
    assert.ok(offered.length <= 3, offered.join(', '));
  });

  it('--json says which tools the search loaded and when: tools_loaded after the round that searched, the tools in the next round\'s request', async () => {
    const fake = await cli.startFake({
      responses: [
        fakeReply.toolCalls([{ name: 'sprout__search_tools', arguments: { query: 'list files' } }]),
        fakeReply.toolCalls([{ name: 'workspace__list_files', arguments: { path: '.' } }]),
        fakeReply.text('listed'),
      ],
    });
    const run = await runCli(['--json', 'list the files'], { env: cli.env(fake.url, { SPROUT_AGENT_TOOL_SEARCH_THRESHOLD: '3' }), cwd: cli.dir });
    assert.equal(run.code, 0, run.stderr);
    const events = parseEvents(run.stdout).filter((e) => e.type === 'round_started' || e.type === 'tools_loaded');
    assert.deepEqual(events.slice(0, 3).map((e) => (e.type === 'round_started' ? `round ${e.round}` : e.type)), ['round 1', 'tools_loaded', 'round 2']);
    const loaded = events[1];
    assert.ok(loaded?.type === 'tools_loaded');
    assert.equal(loaded.query, 'list files');
    assert.ok(loaded.names.includes('workspace__list_files'), loaded.names.join(', '));
    assert.ok(!toolNames(cli.requestAt(0)).includes('workspace__list_files'));
    assert.ok(toolNames(cli.requestAt(1)).includes('workspace__list_files'), toolNames(cli.requestAt(1)).join(', '));
  });
});
