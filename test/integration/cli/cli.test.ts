// The CLI contract, driven as external tests will: `node dist/cli.js` against the fake OpenAI server and
// real hook servers. Exit codes, --json events, readable output, prompt from stdin, configuration errors
// naming the variable, and the API key kept out of output and out of MCP servers.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import packageJson from '../../../package.json';
import { fakeReply, startFakeOpenAi, type FakeOpenAi } from '../../fakes/fakeOpenAiServer';
import { hookServerConfig, hookServerMcpConfig, objectTimes } from '../../fakes/hookServer';
import { assertAllRequestsValid } from '../loop/loopHarness';
import { baseEnv, ensureBuilt, outcomeOf, parseEvents, runCli, writeMcpConfig } from './cliHarness';

let fake: FakeOpenAi;
let dir: string;
before(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'sprout-cli-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function withFake(options: Parameters<typeof startFakeOpenAi>[0] = {}): Promise<FakeOpenAi> {
  fake = await startFakeOpenAi(options);
  return fake;
}
afterEach(async () => {
  await fake?.close();
});

function gateConfig(name: string, hooks: Record<string, unknown>): string {
  const config = hookServerConfig({ logFile: join(dir, `${name}.log`), hooks: hooks as never });
  return writeMcpConfig(join(dir, `${name}.mcp.json`), [hookServerMcpConfig(name, config)]);
}

describe('usage and configuration (exit 2)', () => {
  it('--help and --version exit 0', async () => {
    const help = await runCli(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage: sprout-agent/);
    for (const name of ['--builtin-servers', 'SPROUT_AGENT_BUILTIN_SERVERS', 'MCP_HOOK_SERVERS', 'SPROUT_AGENT_MAX_CONTEXT_TOKENS', '--trust-workspace', 'SPROUT_AGENT_TRUST_WORKSPACE', '4 ended with a hook objection unresolved']) assert.ok(help.stdout.includes(name), name);
    const version = await runCli(['--version']);
    assert.equal(version.code, 0);
    assert.equal(version.stdout.trim(), packageJson.version);
  });

  it('an unknown option exits 2 with the usage, naming the environment variable it spells', async () => {
    const result = await runCli(['--frobnicate', 'hi']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--frobnicate/);
    assert.match(result.stderr, /Usage: sprout-agent/);
    const endpoint = await runCli(['--base-url', 'http://127.0.0.1:9/v1', 'hi']);
    assert.equal(endpoint.code, 2);
    assert.match(endpoint.stderr, /Unknown option --base-url: this command reads that setting from the environment variable OPENAI_BASE_URL/);
  });

  it('a missing model exits 2 and says how to set it', async () => {
    const result = await runCli(['hi'], { env: { ...baseEnv('http://127.0.0.1:9/v1'), SPROUT_AGENT_MODEL: undefined } });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /SPROUT_AGENT_MODEL/);
    assert.match(result.stderr, /--model/);
  });

  const badEnv: Array<[string, string]> = [
    ['SPROUT_AGENT_HOOK_TIMEOUT_MS', '0'],
    ['SPROUT_AGENT_STOP_MAX_REJECTIONS', '-1'],
    ['SPROUT_AGENT_STOP_BUDGET_SCOPE', 'forever'],
    ['SPROUT_AGENT_REPEATED_END_TURN_STOPS', 'maybe'],
    ['SPROUT_AGENT_MAX_ROUNDS', 'lots'],
    ['SPROUT_AGENT_MAX_CONTEXT_TOKENS', '1.5'],
    ['MCP_HOOK_SERVERS', '*,gate'],
    ['OPENAI_BASE_URL', 'not a url'],
    ['SPROUT_AGENT_BUILTIN_SERVERS', 'workspace,nope'],
  ];
  for (const [name, value] of badEnv) {
    it(`${name}=${value} exits 2 naming the variable`, async () => {
      const result = await runCli(['hi'], { env: { ...baseEnv('http://127.0.0.1:9/v1'), [name]: value } });
      assert.equal(result.code, 2, result.stderr);
      assert.ok(result.stderr.includes(name), result.stderr);
    });
  }

  it('bad options and files exit 2: --max-rounds, --cwd, --mcp-config, an invalid mcp.json, --builtin-servers', async () => {
    const env = baseEnv('http://127.0.0.1:9/v1');
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"servers": {"x": {"type": "carrier-pigeon"}}}');
    // A wrong type is named in zod's own English words (the bundle keeps zod's English messages only).
    const wrongType = join(dir, 'wrong-type.json');
    writeFileSync(wrongType, '{"servers": {"y": {"type": "stdio", "command": 42}}}');
    const cases: Array<[string[], RegExp]> = [
      [['--max-rounds', 'many', 'hi'], /--max-rounds/],
      [['--cwd', join(dir, 'missing'), 'hi'], /--cwd/],
      [['--mcp-config', join(dir, 'missing.json'), 'hi'], /--mcp-config/],
      [['--mcp-config', broken, 'hi'], /carrier-pigeon/],
      [['--mcp-config', wrongType, 'hi'], /server "y": command: Invalid input: expected string, received number/],
      [['--builtin-servers', 'todo,nope', 'hi'], /nope/],
    ];
    for (const [args, pattern] of cases) {
      const result = await runCli(args, { env });
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, pattern);
    }
  });

  it('an empty prompt exits 2', async () => {
    const result = await runCli([], { env: baseEnv('http://127.0.0.1:9/v1'), input: '  \n' });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /No prompt/);
  });
});

describe('runs', () => {
  it('ends normally (0) with readable text: streamed reply, tool lines, the outcome', async () => {
    await withFake({ responses: [fakeReply.toolCalls([{ name: 'gate__echo', arguments: { text: 'ping' } }]), fakeReply.text('All done here.')] });
    const config = gateConfig('gate', {});
    const result = await runCli(['--mcp-config', config, 'say hi'], { env: baseEnv(fake.url) });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /-> gate__echo \{"text":"ping"\}/);
    assert.match(result.stdout, /<- gate__echo: ping/);
    assert.match(result.stdout, /All done here\.\n== end_turn after 2 rounds/);
    assertAllRequestsValid(fake.requests);
  });

  it('--json prints one event per line, in order, including hook objections', async () => {
    await withFake({ responses: [fakeReply.text('first'), fakeReply.text('second')] });
    const config = gateConfig('nag', { _Stop: { kind: 'object', text: 'finish the tests' } });
    const result = await runCli(['--json', '--mcp-config', config, 'go'], { env: { ...baseEnv(fake.url), MCP_HOOK_SERVERS: 'nag' } });
    // The model ended its turn again right after the objection: it declined, and the verdict still objects (exit 4).
    assert.equal(result.code, 4, result.stderr);
    const events = parseEvents(result.stdout);
    const types: string[] = events.map((e) => e.type);
    const order = ['session_started', 'prompt_started', 'round_started', 'text_delta', 'hook_called', 'hook_objected', 'round_started', 'outcome'];
    let at = -1;
    for (const type of order) {
      at = types.indexOf(type, at + 1);
      assert.ok(at >= 0, `${type} in order in ${types.join(',')}`);
    }
    assert.equal(types.at(-1), 'outcome');
    const objected = events.find((e) => e.type === 'hook_objected');
    assert.equal(objected?.type === 'hook_objected' ? objected.text : undefined, 'finish the tests');
    assert.equal(outcomeOf(events)?.reason, 'end_turn');
    assert.equal(outcomeOf(events)?.unresolved?.cause, 'declined');
    assert.equal(events.map((e) => (e.type === 'text_delta' ? e.delta : '')).join(''), 'firstsecond');
    assertAllRequestsValid(fake.requests);
  });

  it('readable output marks a hook objection clearly', async () => {
    await withFake({ responses: [fakeReply.text('first'), fakeReply.text('second')] });
    const config = gateConfig('nag2', { _Stop: { kind: 'object', text: 'tests are red' } });
    const result = await runCli(['--mcp-config', config, 'go'], { env: { ...baseEnv(fake.url), MCP_HOOK_SERVERS: '*' } });
    assert.equal(result.code, 4, result.stderr);
    assert.match(result.stdout, /!! HOOK OBJECTION from nag2 \(_Stop 1\/3\):\n {2}\| tests are red/);
    assert.match(result.stdout, /!! the turn ended with an unresolved hook objection \(the model declined\)/);
  });

  it('max rounds reached exits 3', async () => {
    await withFake({ responses: [fakeReply.toolCalls([{ name: 'gate__echo', arguments: { text: 'x' } }])] });
    const config = gateConfig('gate3', {});
    const result = await runCli(['--mcp-config', config, '--max-rounds', '1', '--json', 'loop'], { env: baseEnv(fake.url) });
    assert.equal(result.code, 3, result.stderr);
    assert.equal(outcomeOf(parseEvents(result.stdout))?.reason, 'max_rounds');
  });

  it('exit 4 when the turn ends with an objection standing: declined, budget spent, max rounds right after it', async () => {
    const cases: Array<{ label: string; env: Record<string, string>; args: string[]; reason: string; cause: string }> = [
      { label: 'declined', env: {}, args: [], reason: 'end_turn', cause: 'declined' },
      {
        label: 'budget spent',
        env: { SPROUT_AGENT_STOP_MAX_REJECTIONS: '1', SPROUT_AGENT_REPEATED_END_TURN_STOPS: 'false' },
        args: [],
        reason: 'end_turn',
        cause: 'budget_exhausted',
      },
      { label: 'max rounds', env: {}, args: ['--max-rounds', '1'], reason: 'max_rounds', cause: 'max_rounds' },
    ];
    for (const c of cases) {
      await withFake({ responses: [fakeReply.text('done, I think'), fakeReply.text('really done')] });
      const config = gateConfig(`red-${c.cause}`, { _Stop: { kind: 'object', text: 'the tests still fail' } });
      const env = { ...baseEnv(fake.url), MCP_HOOK_SERVERS: `red-${c.cause}`, ...c.env };
      const result = await runCli(['--json', '--mcp-config', config, ...c.args, 'fix the tests'], { env });
      assert.equal(result.code, 4, `${c.label}: ${result.stderr}`);
      const outcome = outcomeOf(parseEvents(result.stdout));
      assert.equal(outcome?.reason, c.reason, c.label);
      assert.equal(outcome?.unresolved?.cause, c.cause, c.label);
      assert.deepEqual(outcome?.unresolved?.objections, [{ server: `red-${c.cause}`, text: 'the tests still fail' }], c.label);
      assertAllRequestsValid(fake.requests);
      await fake.close();
    }
  });

  it('an objection the model complied with ends normally (0)', async () => {
    await withFake({
      responses: [fakeReply.text('done'), fakeReply.toolCalls([{ name: 'fixed__echo', arguments: { text: 'fixing' } }]), fakeReply.text('fixed now')],
    });
    const config = gateConfig('fixed', { _Stop: objectTimes('tests are red', 1) });
    const result = await runCli(['--json', '--mcp-config', config, 'fix it'], { env: { ...baseEnv(fake.url), MCP_HOOK_SERVERS: 'fixed' } });
    assert.equal(result.code, 0, result.stderr);
    const outcome = outcomeOf(parseEvents(result.stdout));
    assert.equal(outcome?.reason, 'end_turn');
    assert.equal(outcome?.unresolved, undefined);
  });

  it('an auth failure exits 1 with a clear message and never prints the key', async () => {
    await withFake({ apiKey: 'the-right-key', responses: [fakeReply.text('never')] });
    const env = baseEnv(fake.url);
    const result = await runCli(['hi'], { env });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /401|API key|unauthori[sz]ed/i);
    assert.ok(!`${result.stdout}${result.stderr}`.includes(env.OPENAI_API_KEY ?? '?'));
  });

  it('reads the prompt from stdin when omitted or "-"', async () => {
    await withFake({ responses: [fakeReply.text('one'), fakeReply.text('two')] });
    for (const args of [[], ['-']]) {
      const result = await runCli(args, { env: baseEnv(fake.url), input: `prompt via stdin ${args.length}\n` });
      assert.equal(result.code, 0, result.stderr);
    }
    const users = fake.chatRequests().map((r) => (r.body as { messages: Array<{ role: string; content: string }> }).messages.at(-1)?.content);
    assert.deepEqual(users, ['prompt via stdin 0', 'prompt via stdin 1'], 'the final newline of piped input is not part of the prompt');
  });

  it('an allowlisted name that matches no server is a configuration error (2) that names the servers', async () => {
    await withFake({ responses: [fakeReply.text('done')] });
    const config = gateConfig('tests', { _Stop: { kind: 'empty' } });
    const result = await runCli(['--mcp-config', config, 'go'], { env: { ...baseEnv(fake.url), MCP_HOOK_SERVERS: 'test' } });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /MCP_HOOK_SERVERS names test, which is no server of this run \(servers: tests\): fix the name/);
    assert.equal(fake.chatRequests().length, 0, 'nothing ran');
    const off = await runCli(['go'], { env: { ...baseEnv(fake.url), MCP_HOOK_SERVERS: 'todo' } });
    assert.equal(off.code, 2, off.stderr);
    assert.match(off.stderr, /"todo" is a bundled server that is off: add it to --builtin-servers/);
  });

  it('a server with hooks that is not allowlisted gets the hint, and the run goes on', async () => {
    await withFake({ responses: [fakeReply.text('done')] });
    const config = gateConfig('quiet', { _Stop: { kind: 'empty' } });
    const result = await runCli(['--mcp-config', config, 'go'], { env: baseEnv(fake.url) });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /server quiet has hooks \(_Stop\) but is not in MCP_HOOK_SERVERS.*MCP_HOOK_SERVERS=quiet/);
  });

  it('the API key never reaches an MCP server', async () => {
    await withFake({ responses: [fakeReply.text('done'), fakeReply.text('still done')] });
    const config = gateConfig('envy', { _Stop: { kind: 'env' } });
    const env: Record<string, string> = { ...baseEnv(fake.url), MCP_HOOK_SERVERS: 'envy', SPROUT_AGENT_STOP_MAX_REJECTIONS: '1' };
    const result = await runCli(['--json', '--mcp-config', config, 'go'], { env });
    assert.equal(result.code, 4, `the env hook's objection stands: ${result.stderr}`);
    const objection = parseEvents(result.stdout).find((e) => e.type === 'hook_objected');
    assert.ok(objection?.type === 'hook_objected', 'the env hook answered');
    const serverEnv = JSON.parse(objection.text) as Record<string, string>;
    assert.equal(serverEnv.PATH, env.PATH, 'PATH passes through');
    assert.equal(serverEnv.OPENAI_API_KEY, undefined);
    assert.ok(!objection.text.includes(env.OPENAI_API_KEY ?? '?'));
  });
});
