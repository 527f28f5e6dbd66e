/**
 * The hook host's memory of bridgeSetup: the same inputs give the setup it made, and anything the setup
 * was read from (the --mcp-config file, the workspace's .vscode/mcp.json, an envFile) changing between
 * events gives what bridgeSetup would say now, as it does without a host.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { ServerOptions } from '../../../src/cli/bridge/bridgeArgs';
import { bridgeSetup } from '../../../src/cli/bridge/bridgeServers';
import { BridgeSetupCache } from '../../../src/cli/bridge/bridgeSetupCache';

let dir: string;
let workspace: string;
let env: Record<string, string>;

function config(path: string, servers: Record<string, unknown>): string {
  writeFileSync(path, JSON.stringify({ servers }));
  return path;
}

const server = (arg: string, extra: Record<string, unknown> = {}) => ({ type: 'stdio', command: 'node', args: [arg], ...extra });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sprout-setup-cache-'));
  workspace = join(dir, 'ws');
  mkdirSync(workspace);
  env = { PATH: process.env.PATH ?? '', HOME: dir, XDG_STATE_HOME: join(dir, 'state') };
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('BridgeSetupCache', () => {
  const setupOf = (cache: BridgeSetupCache, options: ServerOptions) => cache.setup(options, workspace, env, dir, workspace);
  const fresh = (options: ServerOptions) => bridgeSetup(options, workspace, env, dir, workspace);

  it('gives the setup it made while nothing it read has changed, the same as bridgeSetup', () => {
    const options = { mcpConfig: config(join(dir, 'servers.json'), { hooks: server('a.js') }), trustWorkspace: false, hookServers: 'hooks' };
    const cache = new BridgeSetupCache();
    const first = setupOf(cache, options);
    assert.equal(setupOf(cache, options), first);
    assert.deepEqual(first, fresh(options));
  });

  it('reads the --mcp-config file again once its bytes change, and once a link leads elsewhere', () => {
    const path = config(join(dir, 'servers.json'), { hooks: server('a.js') });
    const link = join(dir, 'link.json');
    symlinkSync(path, link);
    const options = { mcpConfig: link, trustWorkspace: false, hookServers: 'hooks' };
    const cache = new BridgeSetupCache();
    const first = setupOf(cache, options);
    config(path, { hooks: server('b.js') });
    const edited = setupOf(cache, options);
    assert.notDeepEqual(edited, first);
    assert.deepEqual(edited, fresh(options));
    // The same bytes in a file inside the workspace: its servers are the workspace's (secret rules), so it counts as a change.
    const inside = config(join(workspace, 'servers.json'), { hooks: server('b.js') });
    rmSync(link);
    symlinkSync(inside, link);
    const moved = setupOf(cache, options);
    assert.notEqual(moved, edited);
    assert.deepEqual(moved, fresh(options));
  });

  it("notices a workspace's .vscode/mcp.json appearing", () => {
    const options = { mcpConfig: config(join(dir, 'servers.json'), { hooks: server('a.js') }), trustWorkspace: false, hookServers: 'hooks' };
    const cache = new BridgeSetupCache();
    assert.deepEqual(setupOf(cache, options).notices, []);
    mkdirSync(join(workspace, '.vscode'));
    config(join(workspace, '.vscode', 'mcp.json'), { theirs: server('c.js') });
    const now = setupOf(cache, options);
    assert.equal(now.notices.length, 1);
    assert.match(now.notices[0] ?? '', /theirs/);
    assert.deepEqual(now, fresh(options));
  });

  it('keeps no setup whose configuration names an envFile: the env file is read for every event', () => {
    const envFile = join(dir, 'hooks.env');
    writeFileSync(envFile, 'HOOK_MODE=one\n');
    const options = { mcpConfig: config(join(dir, 'servers.json'), { hooks: server('a.js', { envFile }) }), trustWorkspace: false, hookServers: 'hooks' };
    const cache = new BridgeSetupCache();
    const first = setupOf(cache, options);
    writeFileSync(envFile, 'HOOK_MODE=two\n');
    const second = setupOf(cache, options);
    assert.notDeepEqual(second, first);
    assert.deepEqual(second, fresh(options));
  });

  it('keeps no failure: a setup that threw is made again once the file is there', () => {
    const path = join(dir, 'later.json');
    const options = { mcpConfig: path, trustWorkspace: false, hookServers: 'hooks' };
    const cache = new BridgeSetupCache();
    assert.throws(() => setupOf(cache, options), /does not exist/);
    config(path, { hooks: server('a.js') });
    assert.deepEqual(setupOf(cache, options), fresh(options));
  });

  it('makes a setup of its own for other inputs (another environment)', () => {
    const options = { mcpConfig: config(join(dir, 'servers.json'), { hooks: server('${env:HOOK_ARG}') }), trustWorkspace: false, hookServers: 'hooks' };
    const cache = new BridgeSetupCache();
    env.HOOK_ARG = 'one.js';
    const one = setupOf(cache, options);
    env = { ...env, HOOK_ARG: 'two.js' };
    const two = setupOf(cache, options);
    assert.notDeepEqual(two, one);
    assert.deepEqual(two, fresh(options));
  });
});
