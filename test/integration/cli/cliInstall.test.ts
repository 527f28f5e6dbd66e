// Installing the CLI outside the checkout, the ways the README gives: a packed tarball
// (`npm pack`, then `npm install -g sprout-agent-<version>.tgz`) and `npm install -g .` from the
// checkout (what `npm link` does too). Each installs into a temp prefix, offline, and the installed
// `sprout-agent` runs a prompt with the bundled servers it found next to itself; the one from the
// tarball (what npm publishes, docs/releasing.md) also answers --help and runs `hooks check`.
// The child-process bounds are hang guards only, far above what a loaded machine takes.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import packageJson from '../../../package.json';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { baseEnv, collect, REPO_ROOT, type CliResult } from './cliHarness';
import { cliFixture } from './cliRun';

const cli = cliFixture('sprout-cli-install-');

/** npm as a user runs it: none of the npm_* variables an outer `npm test` exports. */
function npm(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  const result = spawnSync('npm', [...args, '--no-audit', '--no-fund', '--offline'], { cwd, env, encoding: 'utf8', timeout: 600_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Asynchronous: the fake model answers from this process, so it must not be blocked while the CLI runs. */
function run(bin: string, args: string[], env: Record<string, string>): Promise<CliResult> {
  const child = spawn(bin, args, { cwd: cli.dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end();
  return collect(child, { timeoutMs: 600_000 });
}

/** The installed CLI answers --version and runs a prompt with the bundled workspace and todo servers. */
async function assertInstalledCliWorks(prefix: string): Promise<void> {
  const bin = join(prefix, 'bin');
  const version = await run(join(bin, 'sprout-agent'), ['--version'], { PATH: process.env.PATH ?? '' });
  assert.equal(version.code, 0, version.stderr);
  assert.equal(version.stdout.trim(), packageJson.version);
  const fake = await cli.startFake({ responses: [fakeReply.text('installed and answering')] });
  const env = { ...baseEnv(fake.url) } as Record<string, string>;
  delete env.SPROUT_AGENT_BUILTIN_SERVERS;
  const prompt = await run(join(bin, 'sprout-agent'), ['--json', 'hello'], env);
  assert.equal(prompt.code, 0, prompt.stderr);
  assert.match(prompt.stdout, /installed and answering/);
  const tools = (fake.chatRequests()[0]?.body as { tools?: Array<{ function: { name: string } }> }).tools?.map((t) => t.function.name) ?? [];
  assert.ok(tools.includes('workspace__read_file') && tools.includes('todo__todo'), `bundled servers found next to the installed CLI: ${tools.join(', ')}`);
  for (const server of ['sprout-mcp-workspace', 'sprout-mcp-todo', 'sprout-mcp-tests']) {
    const help = await run(join(bin, server), ['--help'], { PATH: process.env.PATH ?? '' });
    assert.equal(help.code, 0, `${server}: ${help.stderr}`);
    assert.match(help.stdout, new RegExp(`^Usage: ${server}`));
  }
}

/** What a user checks first: the usage text, and the bundled todo server's hooks answering `hooks check`. */
async function assertHelpAndHooksCheck(prefix: string): Promise<void> {
  const installed = join(prefix, 'bin', 'sprout-agent');
  const help = await run(installed, ['--help'], { PATH: process.env.PATH ?? '' });
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /sprout-agent \[options\] \[prompt\]/);
  assert.match(help.stdout, /sprout-agent hooks check/);
  // A generous hook timeout: this checks the installed files work, not how fast a loaded machine is.
  const env = { PATH: process.env.PATH ?? '', HOME: cli.dir, XDG_STATE_HOME: join(cli.dir, 'state'), MCP_HOOK_SERVERS: 'todo', SPROUT_AGENT_HOOK_TIMEOUT_MS: '120000' };
  const check = await run(installed, ['hooks', 'check', '--json'], env);
  assert.equal(check.code, 0, `${check.stdout}\n${check.stderr}`);
  const report = JSON.parse(check.stdout) as { servers: Array<{ name: string; hooks: string[] }> };
  const todo = report.servers.find((s) => s.name === 'todo');
  assert.ok(todo?.hooks.includes('_Stop'), `the installed todo server offers _Stop: ${check.stdout}`);
}

describe('installing the CLI', () => {
  it('npm pack ships only the CLI and the bundled servers; the tarball installs offline and runs', async () => {
    assert.match(packageJson.scripts.prepack, /esbuild\.mjs/, '`npm pack` builds dist/ first');
    // --ignore-scripts: dist/ is already fresh (ensureBuilt), and other test files may be running it.
    const packed = npm(['pack', '--ignore-scripts', '--json', '--pack-destination', cli.dir], REPO_ROOT);
    assert.equal(packed.status, 0, packed.stderr);
    const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    assert.ok(info);
    assert.deepEqual(info.files.map((f) => f.path).sort(), [
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
      'dist/cli.js',
      'dist/cliMain.js',
      'dist/hookBridge.js',
      'dist/servers/tests.js',
      'dist/servers/todo.js',
      'dist/servers/workspace.js',
      'package.json',
    ]);
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    assert.deepEqual(manifest.dependencies ?? {}, {}, 'everything is bundled into dist/, so an install fetches nothing');
    const prefix = join(cli.dir, 'from-tarball');
    const installed = npm(['install', '-g', '--prefix', prefix, join(cli.dir, info.filename)], cli.dir);
    assert.equal(installed.status, 0, installed.stderr);
    await assertInstalledCliWorks(prefix);
    await assertHelpAndHooksCheck(prefix);
  });

  it('npm install -g . from the checkout links the built CLI', async () => {
    const prefix = join(cli.dir, 'from-checkout');
    const installed = npm(['install', '-g', '--prefix', prefix, REPO_ROOT], cli.dir);
    assert.equal(installed.status, 0, installed.stderr);
    await assertInstalledCliWorks(prefix);
  });
});
