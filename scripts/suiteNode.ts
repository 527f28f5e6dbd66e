// The Node every suite of `npm test` runs on. The product targets Node 22+ (package.json
// `engines.node`, src/cli/nodeFloor.ts); a machine whose own Node is older (Debian's CI image has 20) gets Node 22 from the
// npm registry (the package `node@22`, once, into the user's cache folder beside the editor's Node 24)
// and every step runs on it: `npm test` puts its folder first on PATH, so `npm run <step>` (npm's own
// `#!/usr/bin/env node`) and every `node` a script starts resolve to it. `npm ci` may stay on the
// machine's Node: the native packages it installs are N-API builds, the same for both.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { NODE_FLOOR, meetsNodeFloor } from '../src/cli/nodeFloor';
import { ensureCachedNode } from './ensureCodeServer';

export const SUITE_NODE_MAJOR = 22;

export interface SuiteNode {
  /** The binary, and the folder that goes first on PATH (undefined: the machine's Node suffices). */
  bin: string;
  pathEntry?: string;
  version: string;
  /** Environment the steps get besides PATH (npm's `nodedir`: the fetched Node's own headers, over a user npmrc's). */
  env: Record<string, string>;
}

/** This process's Node when it meets the floor, else the cached Node 22 (fetched on first use). */
export function suiteNode(log: (m: string) => void = (m) => console.error(m)): SuiteNode {
  if (meetsNodeFloor(process.version)) return { bin: process.execPath, version: process.version, env: {} };
  log(`npm test: this machine's Node is ${process.version}, older than the product's floor ${NODE_FLOOR}; the suites run on Node ${SUITE_NODE_MAJOR} from the npm registry`);
  const bin = ensureCachedNode(String(SUITE_NODE_MAJOR), `node-${SUITE_NODE_MAJOR}`, (v) => v.startsWith(`v${SUITE_NODE_MAJOR}.`) && meetsNodeFloor(v), log);
  const headers = keepMachineNpmConfig(bin, log);
  const version = spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.trim();
  return { bin, pathEntry: dirname(bin), version, env: headers === undefined ? {} : { npm_config_nodedir: headers } };
}

/**
 * npm finds its global config at `<prefix>/etc/npmrc`, the prefix being the folder above the running
 * Node's `bin/`: under the fetched Node that file does not exist, so an `npm` or `npx` a test starts
 * would lose what the machine's Node gives it (a registry, a `cafile` for the machine's proxy). The
 * machine's global npmrc is copied beside the fetched Node, as an installed Node carries its own,
 * except its `nodedir` (the machine's Node headers): native builds use the fetched Node's headers.
 */
function keepMachineNpmConfig(bin: string, log: (m: string) => void): string | undefined {
  const prefix = dirname(dirname(bin));
  const found = join(prefix, 'node_modules', `node-${process.platform}-${process.arch}`);
  const headers = existsSync(join(found, 'include', 'node', 'common.gypi')) ? found : undefined;
  const asked = spawnSync('npm', ['config', 'get', 'globalconfig'], { encoding: 'utf8' });
  const machine = asked.status === 0 ? asked.stdout.trim() : '';
  if (machine === '' || !existsSync(machine)) return headers;
  const target = join(prefix, 'etc', 'npmrc');
  const lines = readFileSync(machine, 'utf8').split('\n').filter((line) => !/^\s*nodedir\s*=/.test(line));
  if (headers !== undefined) lines.push(`nodedir=${headers}`);
  const wanted = `${lines.join('\n').trimEnd()}\n`;
  if (existsSync(target) && readFileSync(target, 'utf8') === wanted) return headers;
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, wanted);
  log(`npm test: the fetched Node's npm reads the machine's global config (${machine})`);
  return headers;
}
