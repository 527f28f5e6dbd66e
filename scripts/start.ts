// `npm run start`: build, package the .vsix, and launch it the way a user would. With a local `code`
// CLI the .vsix goes into that VS Code; otherwise (a headless box) it installs into the cached
// code-server and serves this folder on 127.0.0.1:8080 (PORT to change), until Ctrl+C.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureCodeServer } from './ensureCodeServer';

const root = resolve(__dirname, '..');

function step(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status ?? r.signal})`);
}

function hasCodeCli(): boolean {
  if (process.env['SPROUT_START_CODE_SERVER'] === '1') return false;
  return spawnSync('code', ['--version'], { stdio: 'ignore' }).status === 0;
}

function main(): void {
  step('npm', ['run', 'package']);
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string };
  const vsix = join(root, `${pkg.name}-${pkg.version}.vsix`);
  if (hasCodeCli()) {
    step('code', ['--install-extension', vsix, '--force']);
    console.log(`Installed ${vsix} into VS Code. Opening ${root}.`);
    step('code', [root]);
    return;
  }
  const install = ensureCodeServer();
  // A persistent profile under the cache: settings and the API key survive restarts.
  const home = join(root, '.cache', 'editor', 'profile');
  for (const d of ['user', 'ext', 'xdg-config', 'xdg-data']) mkdirSync(join(home, d), { recursive: true });
  const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, 'xdg-config'), XDG_DATA_HOME: join(home, 'xdg-data') };
  const dirs = ['--config', join(home, 'config.yaml'), '--user-data-dir', join(home, 'user'), '--extensions-dir', join(home, 'ext')];
  step(install.nodeBin, [install.codeServerEntry, ...dirs, '--install-extension', vsix, '--force'], env);
  const port = process.env['PORT'] ?? '8080';
  const host = process.env['HOST'] ?? '127.0.0.1';
  const args = [install.codeServerEntry, ...dirs, '--bind-addr', `${host}:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check', root];
  console.log(`\nSprout Agent in code-server: http://${host}:${port}/?folder=${encodeURIComponent(root)}\n(Ctrl+C stops it)\n`);
  const child = spawn(install.nodeBin, args, { cwd: root, stdio: 'inherit', env });
  const stop = (): void => {
    child.kill('SIGTERM');
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  child.on('exit', (code) => process.exit(code ?? 0));
}

try {
  main();
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
}
