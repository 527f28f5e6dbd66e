// `npm run start [-- FOLDER]`: build, package the .vsix, and launch it the way a user would, on a
// folder that makes sense for a first try (the sample workspace from firstRun.ts, unless a folder is
// given). With a local `code` CLI the .vsix goes into that VS Code; otherwise (a headless box, or
// SPROUT_START_CODE_SERVER=1) it installs into the cached code-server with a profile under the
// user's cache folder, serves the folder on 127.0.0.1:8080 (PORT, HOST to change) with Workspace
// Trust on, says what to do next once the editor answers, and runs until Ctrl+C.
// SPROUT_START_VSIX=<file> launches that .vsix instead of packaging one.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureCodeServer, type EditorInstall } from './ensureCodeServer';
import { ensureProfile, ensureSampleWorkspace, nextSteps, profileDir, sampleWorkspaceDir, type EditorProfile } from './firstRun';

const root = resolve(__dirname, '..');

function step(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status ?? r.signal})`);
}

function hasCodeCli(): boolean {
  if (process.env['SPROUT_START_CODE_SERVER'] === '1') return false;
  return spawnSync('code', ['--version'], { stdio: 'ignore' }).status === 0;
}

function packagedVsix(): string {
  const given = process.env['SPROUT_START_VSIX'];
  if (given) {
    const vsix = resolve(given);
    if (!existsSync(vsix)) throw new Error(`SPROUT_START_VSIX: ${vsix} does not exist`);
    return vsix;
  }
  step('npm', ['run', 'package']);
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string };
  return join(root, `${pkg.name}-${pkg.version}.vsix`);
}

/** The folder argument, or the sample workspace (made on first use). */
function folderToOpen(): { folder: string; isSample: boolean } {
  const given = process.argv[2];
  if (given !== undefined && given.trim() !== '') {
    const folder = resolve(given);
    if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new Error(`${folder} is not a folder: pass an existing folder to open`);
    return { folder, isSample: false };
  }
  const sample = ensureSampleWorkspace(sampleWorkspaceDir());
  if (sample.created) console.log(`Created the sample workspace ${sample.dir}`);
  return { folder: sample.dir, isSample: true };
}

async function waitUntilServing(url: string, alive: () => boolean): Promise<boolean> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline && alive()) {
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(2000) })).ok) return true;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return false;
}

function profileArgs(profile: EditorProfile): string[] {
  return ['--config', profile.configFile, '--user-data-dir', profile.userDataDir, '--extensions-dir', profile.extensionsDir];
}

async function serveInCodeServer(install: EditorInstall, vsix: string, target: { folder: string; isSample: boolean }): Promise<void> {
  const profile = ensureProfile(profileDir());
  step(install.nodeBin, [install.codeServerEntry, ...profileArgs(profile), '--install-extension', vsix, '--force'], profile.env);
  const port = process.env['PORT'] ?? '8080';
  const host = process.env['HOST'] ?? '127.0.0.1';
  const args = [install.codeServerEntry, ...profileArgs(profile), '--bind-addr', `${host}:${port}`, '--auth', 'none'];
  args.push('--disable-telemetry', '--disable-update-check', '--disable-getting-started-override', target.folder);
  const child = spawn(install.nodeBin, args, { cwd: target.folder, stdio: 'inherit', env: profile.env });
  const stop = (): void => void child.kill('SIGTERM');
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  child.on('exit', (code) => process.exit(code ?? 0));
  const url = `http://${host}:${port}/?folder=${encodeURIComponent(target.folder)}`;
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  if (await waitUntilServing(`http://${reachable}:${port}/healthz`, () => child.exitCode === null)) {
    console.log(nextSteps({ url, folder: target.folder, isSample: target.isSample, profile: profile.root }));
  }
}

async function main(): Promise<void> {
  const vsix = packagedVsix();
  const target = folderToOpen();
  if (hasCodeCli()) {
    step('code', ['--install-extension', vsix, '--force']);
    console.log(`Installed ${vsix} into VS Code. Opening ${target.folder}: click the Sprout icon, then set a key or a local model URL.`);
    step('code', [target.folder]);
    return;
  }
  await serveInCodeServer(ensureCodeServer({ browser: false }), vsix, target);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
