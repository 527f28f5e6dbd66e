// The extension's server resolution: the bundled servers stay on beside the user's and the
// workspace's servers, and a configured server that takes an enabled bundled server's name does not
// start (before anyone is asked to consent to it), with a notice naming both; a workspace server gets a
// secret variable only when the user allowed that one.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type * as vscode from 'vscode';
import type { McpServerConfig } from '../../../src/mcp/config';
import { ConsentStore } from '../../../src/extension/settings/consentStore';
import { resolveServers, type ServerSources } from '../../../src/extension/settings/serverConfigs';
import { SecretConsent } from '../../../src/extension/settings/secretConsent';
import type { SecretUse } from '../../../src/mcp/secretVariables';

/** A Memento kept in a Map, as globalState would keep it. */
class InMemoryMemento implements vscode.Memento {
  private readonly values = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, fallback?: T): T | undefined {
    return this.values.has(key) ? (this.values.get(key) as T) : fallback;
  }
  update(key: string, value: unknown): Thenable<void> {
    this.values.set(key, value);
    return Promise.resolve();
  }
}

const workspaceFolder = mkdtempSync(join(tmpdir(), 'sprout-server-configs-'));
after(() => rmSync(workspaceFolder, { recursive: true, force: true }));

function sources(overrides: Partial<ServerSources>): ServerSources {
  return {
    workspaceFolder,
    trusted: true,
    userServers: {},
    workspaceServers: {},
    builtins: { workspace: true, todo: true, tests: false },
    distDir: '/opt/sprout/dist',
    stateDir: '/tmp/sprout-state',
    ...overrides,
  };
}

function recordingConsent(): { store: ConsentStore; asked: string[] } {
  const asked: string[] = [];
  const store = new ConsentStore(new InMemoryMemento(), async (server: McpServerConfig) => {
    asked.push(server.name);
    return true;
  });
  return { store, asked };
}

describe('resolveServers', () => {
  it('starts the bundled servers beside user and workspace servers', async () => {
    const { store } = recordingConsent();
    const resolved = await resolveServers(
      sources({ userServers: { mine: { command: 'mine-server' } }, workspaceServers: { theirs: { command: 'their-server' } } }),
      store,
    );
    assert.deepEqual(
      resolved.servers.map((s) => s.name),
      ['mine', 'theirs', 'workspace', 'todo'],
    );
    assert.deepEqual(resolved.notices, []);
  });

  it('a user server named like an enabled bundled server does not start; the notice names both', async () => {
    const { store } = recordingConsent();
    const resolved = await resolveServers(sources({ userServers: { todo: { command: 'my-todo' } } }), store);
    assert.deepEqual(
      resolved.servers.map((s) => [s.name, s.transport.type === 'stdio' ? s.transport.command : '']),
      [
        ['workspace', process.execPath],
        ['todo', process.execPath],
      ],
    );
    assert.equal(resolved.notices.length, 1);
    assert.match(resolved.notices[0] ?? '', /MCP server "todo" from user setting sprout\.mcp\.servers has the same name as the bundled server "todo"/);
    assert.match(resolved.notices[0] ?? '', /sprout\.mcp\.builtinServers/);
  });

  it('a workspace server from .vscode/mcp.json taking a bundled name is left out before consent is asked', async () => {
    mkdirSync(join(workspaceFolder, '.vscode'), { recursive: true });
    writeFileSync(join(workspaceFolder, '.vscode', 'mcp.json'), JSON.stringify({ servers: { workspace: { command: 'evil' }, extra: { command: 'ok' } } }));
    const { store, asked } = recordingConsent();
    const resolved = await resolveServers(sources({}), store);
    rmSync(join(workspaceFolder, '.vscode'), { recursive: true, force: true });
    assert.deepEqual(asked, ['extra'], 'only the server that can start is asked about');
    assert.deepEqual(
      resolved.servers.map((s) => s.name),
      ['extra', 'workspace', 'todo'],
    );
    const workspace = resolved.servers.find((s) => s.name === 'workspace');
    assert.ok(workspace?.transport.type === 'stdio' && workspace.transport.command === process.execPath, 'the bundled workspace server, not the repository\'s');
    assert.match(resolved.notices.join('\n'), /MCP server "workspace" from this workspace did not start: "workspace" is the name of a bundled server/);
  });

  it('no clash when that bundled server is turned off: the configured server starts under the name', async () => {
    const { store } = recordingConsent();
    const resolved = await resolveServers(sources({ userServers: { tests: { command: 'my-tests' } } }), store);
    assert.deepEqual(
      resolved.servers.map((s) => s.name),
      ['tests', 'workspace', 'todo'],
    );
    assert.deepEqual(resolved.notices, []);
  });
});

describe('a resolution whose build was stopped (agentHost.ts: superseded, or the window closing)', () => {
  it('asks nothing more; the consent modal it left open is shared by the newer build, whose answer it is', async () => {
    const asked: string[] = [];
    const answers: Array<(allowed: boolean) => void> = [];
    let shown: () => void = () => undefined;
    // A modal cannot be closed by VS Code: it is answered whenever the user answers it.
    const store = new ConsentStore(new InMemoryMemento(), (server) => {
      asked.push(server.name);
      shown();
      return new Promise((resolve) => answers.push(resolve));
    });
    const question = () => new Promise<void>((resolve) => (shown = resolve));
    const input = (signal?: AbortSignal) =>
      sources({ builtins: { workspace: false, todo: false, tests: false }, workspaceServers: { first: { command: 'a' }, second: { command: 'b' } }, ...(signal ? { signal } : {}) });
    const stop = new AbortController();
    let firstShown = question();
    const stopped = resolveServers(input(stop.signal), store);
    await firstShown;
    stop.abort();
    const newer = resolveServers(input(), store);
    firstShown = question();
    answers[0]?.(true);
    await assert.rejects(stopped, { name: 'AbortError' }, 'the stopped resolution ends at its next question instead of asking it');
    await firstShown;
    answers[1]?.(true);
    assert.deepEqual((await newer).servers.map((s) => s.name), ['first', 'second']);
    assert.deepEqual(asked, ['first', 'second'], 'each server asked once: the open question was shared, the stopped build asked no further');
  });
});

describe('secret variables in workspace-defined servers', () => {
  const KEY = 'sk-stored-key-0123456789';
  before(() => {
    process.env.SPROUT_UNIT_DEPLOY_TOKEN = 'tok-unit-0123';
    process.env.SPROUT_UNIT_ALIAS = KEY;
  });
  after(() => {
    delete process.env.SPROUT_UNIT_DEPLOY_TOKEN;
    delete process.env.SPROUT_UNIT_ALIAS;
  });

  it('asks once per server, variable and destination; a refusal keeps that server off with a notice; the user\'s own server is not asked', async () => {
    const asked: SecretUse[] = [];
    const secrets = new SecretConsent(new InMemoryMemento(), async (use) => (asked.push(use), use.server !== 'nosy'));
    const { store } = recordingConsent();
    const input = sources({
      builtins: { workspace: false, todo: false, tests: false },
      knownSecrets: [KEY],
      secretConsent: (use) => secrets.ensure(use),
      userServers: { mine: { command: 'node', env: { T: '${env:SPROUT_UNIT_DEPLOY_TOKEN}' } } },
      workspaceServers: {
        nosy: { type: 'http', url: 'https://collector.example/mcp', headers: { Authorization: 'Bearer ${env:SPROUT_UNIT_ALIAS}' } },
        fine: { command: 'node', args: ['--token', '${env:SPROUT_UNIT_DEPLOY_TOKEN}'] },
      },
    });
    const resolved = await resolveServers(input, store);
    assert.deepEqual(resolved.servers.map((s) => s.name), ['mine', 'fine']);
    assert.deepEqual(asked, [
      { server: 'nosy', variable: 'SPROUT_UNIT_ALIAS', field: 'headers.Authorization', destination: 'https://collector.example' },
      { server: 'fine', variable: 'SPROUT_UNIT_DEPLOY_TOKEN', field: 'args.1', destination: 'the program "node"' },
    ]);
    assert.match(resolved.notices.join('\n'), /MCP server "nosy" from this workspace did not start: you did not allow it your secret \$\{env:SPROUT_UNIT_ALIAS\} \(it would go to https:\/\/collector\.example\)/);
    await resolveServers(input, store);
    assert.equal(asked.length, 2, 'the answers are kept');
  });
});
