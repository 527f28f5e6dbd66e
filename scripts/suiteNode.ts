// The Node every suite of `npm test` runs on. The product targets Node 22+ (package.json
// `engines.node`, src/cli/nodeFloor.ts); a machine whose own Node is older (Debian's CI image has 20) gets Node 22 from the
// npm registry (the package `node@22`, once, into the user's cache folder beside the editor's Node 24)
// and every step runs on it: `npm test` puts its folder first on PATH, so `npm run <step>` (npm's own
// `#!/usr/bin/env node`) and every `node` a script starts resolve to it. `npm ci` may stay on the
// machine's Node: the native packages it installs are N-API builds, the same for both.
import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';
import { NODE_FLOOR, meetsNodeFloor } from '../src/cli/nodeFloor';
import { ensureCachedNode } from './ensureCodeServer';

export const SUITE_NODE_MAJOR = 22;

export interface SuiteNode {
  /** The binary, and the folder that goes first on PATH (undefined: the machine's Node suffices). */
  bin: string;
  pathEntry?: string;
  version: string;
}

/** This process's Node when it meets the floor, else the cached Node 22 (fetched on first use). */
export function suiteNode(log: (m: string) => void = (m) => console.error(m)): SuiteNode {
  if (meetsNodeFloor(process.version)) return { bin: process.execPath, version: process.version };
  log(`npm test: this machine's Node is ${process.version}, older than the product's floor ${NODE_FLOOR}; the suites run on Node ${SUITE_NODE_MAJOR} from the npm registry`);
  const bin = ensureCachedNode(String(SUITE_NODE_MAJOR), `node-${SUITE_NODE_MAJOR}`, (v) => v.startsWith(`v${SUITE_NODE_MAJOR}.`) && meetsNodeFloor(v), log);
  const version = spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.trim();
  return { bin, pathEntry: dirname(bin), version };
}
