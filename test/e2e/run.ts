// `npm run test:e2e` (after `npm run package`): one code-server with the packaged extension for the
// whole run, instead of one per file (installing the .vsix and starting a server cost each file tens
// of seconds on a busy machine). It starts the server, names it to the files (SPROUT_E2E_SHARED_SERVER,
// harness/sharedServer.ts), runs them one at a time under node:test, and stops the server. Each file
// still gets its own workspace folder, user settings and browser on it; a file that needs a server
// of its own (an environment, more extensions) or runs `npm run start` still starts one. Arguments:
// the files to run (default: every test/e2e/*.e2e.test.ts). Exits with node:test's code.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ensureCodeServer } from '../../scripts/ensureCodeServer';
import { codeServerEnv, codeServerTemp, installVsix, repoRoot, spawnCodeServer, vsixPath, writeUserSettings } from './harness/codeServerWithVsix';
import { type GroupProcess } from './harness/processGroup';
import { SHARED_SERVER_ENV, type SharedServer } from './harness/sharedServer';
import { tearDown } from './harness/teardown';

function testFiles(): string[] {
  const named = process.argv.slice(2);
  if (named.length > 0) return named;
  const dir = join(repoRoot, 'test', 'e2e');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.e2e.test.ts'))
    .sort()
    .map((f) => relative(repoRoot, join(dir, f)));
}

async function startShared(temp: string): Promise<{ server: GroupProcess; shared: SharedServer }> {
  const install = ensureCodeServer();
  const vsix = vsixPath();
  if (!existsSync(vsix)) throw new Error(`${vsix} not found: run \`npm run package\` first`);
  writeUserSettings(temp, {});
  const env = codeServerEnv(temp);
  const extensionDir = installVsix(install.nodeBin, install.codeServerEntry, temp, env, vsix);
  // No --disable-workspace-trust: each window's user settings say whether trust is on (QUIET_SETTINGS: off).
  const { server, port } = await spawnCodeServer(install, temp, env, { trustFlag: true });
  return { server, shared: { port, temp, extensionDir, pid: server.child.pid ?? 0 } };
}

function runFiles(files: string[], shared: SharedServer): Promise<number> {
  const args = ['--import', 'tsx', '--import', './test/testTimeouts.ts', '--test', '--test-timeout=1800000', '--test-force-exit', '--test-concurrency=1', '--test-reporter=spec', ...files];
  const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: 'inherit', env: { ...process.env, [SHARED_SERVER_ENV]: JSON.stringify(shared) } });
  const forward = (signal: NodeJS.Signals): void => void child.kill(signal);
  process.on('SIGINT', forward).on('SIGTERM', forward);
  return new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

async function main(): Promise<void> {
  const temp = codeServerTemp('sprout-e2e-shared-');
  let server: GroupProcess | undefined;
  try {
    const started = await startShared(temp);
    server = started.server;
    process.stdout.write(`e2e: one code-server for the run, on port ${started.shared.port}\n`);
    process.exitCode = await runFiles(testFiles(), started.shared);
  } catch (error) {
    process.stderr.write(`e2e: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  } finally {
    await tearDown(
      ['the shared code-server', () => server?.stop()],
      ['its temp folder', () => rmSync(temp, { recursive: true, force: true })],
    ).catch((error: Error) => {
      process.stderr.write(`e2e: ${error.message}\n`);
      process.exitCode = 1;
    });
  }
}

void main();
