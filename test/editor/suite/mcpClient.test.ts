// MCP client features inside the real extension host: a server's question (the reference server's
// elicitation tool) becomes a form card in the chat that the user accepts or declines; `${input:id}`
// in .vscode/mcp.json is asked once and kept in SecretStorage; an mcp.json edit while the servers are
// resolved supersedes that start; an OAuth-protected HTTP server is signed in to through the "browser"
// and signed out of with the command; roots are the workspace folders; the reference server's
// sampling tool asks the user (the modal, played through the API), then the chat's model answers it.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { SproutApi } from '../../../src/extension/extension';
import { fakeReply, startFakeOpenAi, type FakeOpenAi } from '../../fakes/fakeOpenAiServer';
import { HOOK_SERVER_ENV, hookServerConfig } from '../../fakes/hookServer';
import { browse, startOAuthMcpServer, type OAuthMcpServer } from '../../fakes/oauthMcpServer';
import { changeMcpJson, sproutApi, until } from '../sproutHarness';

const config = () => vscode.workspace.getConfiguration('sprout');
const target = vscode.ConfigurationTarget.Workspace;
const keys = ['model.baseUrl', 'model.name', 'mcp.servers', 'mcp.builtinServers'];
const api = sproutApi;

/** The bundled suite runs from out/editor/suite: the reference server is in the repository's node_modules. */
const everything = join(__dirname, '..', '..', '..', 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

const call = (name: string, args: Record<string, unknown> = {}) => fakeReply.toolCalls([{ name, arguments: args }]);

describe('MCP client features in the editor', function () {
  this.timeout(90_000);
  let fake: FakeOpenAi | undefined;
  let oauth: OAuthMcpServer | undefined;
  const workspace = process.env['SPROUT_TEST_WORKSPACE'] ?? '';
  after(async () => {
    for (const key of keys) await config().update(key, undefined, target);
    await config().update('tools.autoApprove', undefined, vscode.ConfigurationTarget.Global);
    rmSync(join(workspace, '.vscode', 'mcp.json'), { force: true });
    await fake?.close();
    await oauth?.close();
  });

  async function useServers(servers: Record<string, unknown>, responses: ReturnType<typeof fakeReply.text>[] = []): Promise<SproutApi> {
    const sprout = await api();
    // These servers are the workspace's (its settings): the test is the user who lets them start.
    sprout.consent.prompt = async () => true;
    await fake?.close();
    fake = await startFakeOpenAi({ responses });
    await config().update('model.baseUrl', fake.url, target);
    await config().update('model.name', 'fake-model', target);
    await config().update('mcp.builtinServers', { workspace: false, todo: false, tests: false }, target);
    await config().update('mcp.servers', servers, target);
    const url = fake.url;
    // The extension reads a setting in the same event that makes it visible here.
    const written = (key: string, value: unknown) => JSON.stringify(config().inspect(key)?.workspaceValue) === JSON.stringify(value);
    await until(() => sprout.settings().baseUrl === url && written('mcp.servers', servers), 'settings');
    await sprout.host.invalidateServers();
    return sprout;
  }

  for (const [answer, expected] of [
    ['accept', /- Name: Editor User/],
    ['decline', /declined/],
  ] as const) {
    it(`a server's question is a form card in the chat; ${answer} reaches the server`, async () => {
      const sprout = await useServers({ everything: { command: process.execPath, args: [everything, 'stdio'], env: { ELECTRON_RUN_AS_NODE: '1' } } }, [
        call('everything__echo', { message: 'warm up' }),
        call('everything__trigger-elicitation-request'),
        fakeReply.text('done'),
      ]);
      // A user setting only (a repository cannot approve its own tools).
      await config().update('tools.autoApprove', ['everything__echo', 'everything__trigger-elicitation-request'], vscode.ConfigurationTarget.Global);
      await until(() => sprout.settings().autoApprove.length === 2, 'the approvals to be read');
      await vscode.commands.executeCommand('sprout.newChat');
      const chat = await sprout.controller.current();
      const running = sprout.controller.send('ask me something');
      await until(() => chat.view.entries.some((e) => e.kind === 'elicitation' && e.status === 'pending'), 'the question card');
      const card = chat.view.entries.find((e) => e.kind === 'elicitation');
      assert.ok(card?.kind === 'elicitation' && card.server === 'everything');
      await sprout.handle(
        answer === 'accept' ? { type: 'elicitationAnswer', id: card.requestId, action: 'accept', content: { name: 'Editor User' } } : { type: 'elicitationAnswer', id: card.requestId, action: 'decline' },
      );
      await running;
      const settled = chat.view.entries.find((e) => e.kind === 'elicitation');
      assert.equal(settled?.kind === 'elicitation' ? settled.status : undefined, answer);
      const tools = chat.view.entries.filter((e) => e.kind === 'tool');
      const result = tools.at(-1);
      assert.match(result?.kind === 'tool' ? (result.result ?? '') : '', expected);
    });
  }

  it("a server's sampling request asks the user first; allowed, the chat's model answers it, the card shows the model and tokens, and the meter counts them", async () => {
    const sprout = await useServers({ everything: { command: process.execPath, args: [everything, 'stdio'], env: { ELECTRON_RUN_AS_NODE: '1' } } }, [
      call('everything__echo', { message: 'warm up' }),
      call('everything__trigger-sampling-request', { prompt: 'a haiku about moss', maxTokens: 64 }),
      fakeReply.text('Moss keeps the stone warm', { usage: { prompt_tokens: 21, completion_tokens: 6 } }),
      fakeReply.text('done'),
    ]);
    await config().update('tools.autoApprove', ['everything__echo', 'everything__trigger-sampling-request'], vscode.ConfigurationTarget.Global);
    await until(() => sprout.settings().autoApprove.length === 2, 'the approvals to be read');
    const asked: Array<{ message: string; detail: string; choices: string[] }> = [];
    const original = sprout.mcpPrompts.askSampling;
    sprout.mcpPrompts.askSampling = async (message, detail, choices) => {
      asked.push({ message, detail, choices });
      return 'Allow Once';
    };
    try {
      await vscode.commands.executeCommand('sprout.newChat');
      const chat = await sprout.controller.current();
      await sprout.controller.send('write me a poem through the server');
      assert.equal(asked.length, 1, 'asked once');
      assert.match(asked[0]?.message ?? '', /"?everything"? asks to use the chat's model/);
      assert.match(asked[0]?.detail ?? '', /up to 64 tokens[\s\S]*a haiku about moss/);
      assert.deepEqual(asked[0]?.choices, ['Allow Once', 'Allow in This Chat', 'Always Allow in This Workspace']);
      // The sampling call went to the chat's model without tools, with the server's limit.
      const sampling = fake?.chatRequests()[2]?.body as { max_tokens?: number; tools?: unknown[] } | undefined;
      assert.equal(sampling?.max_tokens, 64);
      assert.equal(sampling?.tools, undefined);
      const card = chat.view.entries.find((e) => e.kind === 'sampling');
      assert.ok(card?.kind === 'sampling', 'a sampling card');
      assert.equal(card.server, 'everything');
      assert.equal(card.status, 'answered');
      assert.equal(card.model, 'fake-model');
      assert.equal(card.tokens?.total, 27);
      assert.equal(chat.view.usage?.sampled, 27, 'the usage meter counts the sampling tokens apart');
      const tool = chat.view.entries.filter((e) => e.kind === 'tool').at(-1);
      assert.match(tool?.kind === 'tool' ? (tool.result ?? '') : '', /Moss keeps the stone warm/, "the reply went back to the server's tool");
    } finally {
      sprout.mcpPrompts.askSampling = original;
    }
  });

  it("a sampling request the user refuses never reaches the model; the server's tool gets the refusal", async () => {
    const sprout = await useServers({ everything: { command: process.execPath, args: [everything, 'stdio'], env: { ELECTRON_RUN_AS_NODE: '1' } } }, [
      call('everything__echo', { message: 'warm up' }),
      call('everything__trigger-sampling-request', { prompt: 'anything', maxTokens: 32 }),
      fakeReply.text('done'),
    ]);
    await config().update('tools.autoApprove', ['everything__echo', 'everything__trigger-sampling-request'], vscode.ConfigurationTarget.Global);
    await until(() => sprout.settings().autoApprove.length === 2, 'the approvals to be read');
    const original = sprout.mcpPrompts.askSampling;
    sprout.mcpPrompts.askSampling = async () => undefined; // the modal closed
    try {
      await vscode.commands.executeCommand('sprout.newChat');
      const chat = await sprout.controller.current();
      await sprout.controller.send('write me a poem through the server');
      assert.equal(fake?.chatRequests().length, 3, 'no sampling call reached the model');
      const card = chat.view.entries.find((e) => e.kind === 'sampling');
      assert.equal(card?.kind === 'sampling' ? card.status : undefined, 'refused');
      assert.equal(chat.view.usage?.sampled ?? 0, 0);
    } finally {
      sprout.mcpPrompts.askSampling = original;
    }
  });

  it('roots/list is answered with the workspace folders', async () => {
    const sprout = await useServers({ everything: { command: process.execPath, args: [everything, 'stdio'], env: { ELECTRON_RUN_AS_NODE: '1' } } });
    const hub = await sprout.host.ensureServers();
    await hub.listTools();
    await until(() => hub.cachedTools()?.some((t) => t.bareName === 'get-roots-list') === true, 'the roots tool');
    const result = await hub.callTool('everything', 'get-roots-list', {}, { signal: new AbortController().signal });
    assert.ok(result.text.includes(vscode.Uri.file(workspace).toString()), result.text);
  });

  it('${input:id} in .vscode/mcp.json is asked once, kept in SecretStorage, and reaches the server', async () => {
    const sprout = await api();
    sprout.consent.prompt = async () => true;
    const asked: string[] = [];
    sprout.mcpPrompts.askInput = async (spec) => (asked.push(spec.id), 'typed-secret-value');
    // The runner's command for the fake server (the suites' Node with tsx), with this test's own configuration.
    const t = JSON.parse(process.env['SPROUT_TEST_HOOK_SERVER'] ?? '{}') as { command: string; args: string[]; env: Record<string, string> };
    t.env = { ...t.env, [HOOK_SERVER_ENV]: JSON.stringify(hookServerConfig({ extraTools: [{ name: 'show_env', behaviour: { kind: 'env' } }] })) };
    await useServers({});
    mkdirSync(join(workspace, '.vscode'), { recursive: true });
    await changeMcpJson(sprout, () =>
      writeFileSync(
        join(workspace, '.vscode', 'mcp.json'),
        JSON.stringify({
          inputs: [{ type: 'promptString', id: 'editor-token', description: 'A token', password: true }],
          servers: { inputs: { command: t.command, args: t.args, env: { ...t.env, EDITOR_TOKEN: '${input:editor-token}' } } },
        }),
      ),
    );
    for (let round = 0; round < 2; round++) {
      await sprout.host.invalidateServers();
      // A late mcp.json event on a busy machine can drop the hub while it starts: list on the hub that
      // is still current (as the product's commands do), then call it.
      await sprout.host.listedStatus();
      const hub = await sprout.host.ensureServers();
      const result = await hub.callTool('inputs', 'show_env', {}, { signal: new AbortController().signal });
      assert.match(result.text, /"EDITOR_TOKEN":"typed-secret-value"/);
    }
    assert.deepEqual(asked, ['editor-token'], 'asked once; the second start read SecretStorage');
    assert.ok(!JSON.stringify(config()).includes('typed-secret-value'), 'never in settings');
    await changeMcpJson(sprout, () => rmSync(join(workspace, '.vscode', 'mcp.json'), { force: true }));
  });

  it('an mcp.json edit while the servers are still being resolved supersedes that start: the servers of the new file win', async () => {
    const sprout = await api();
    sprout.consent.prompt = async () => true;
    // The first file's input is answered only after the edit: its resolution is still running then.
    let answer: (value: string) => void = () => undefined;
    const asked: string[] = [];
    sprout.mcpPrompts.askInput = (spec) => (asked.push(spec.id), new Promise((resolve) => (answer = resolve)));
    const t = JSON.parse(process.env['SPROUT_TEST_HOOK_SERVER'] ?? '{}') as { command: string; args: string[]; env: Record<string, string> };
    await useServers({});
    mkdirSync(join(workspace, '.vscode'), { recursive: true });
    const file = join(workspace, '.vscode', 'mcp.json');
    const slow = { inputs: [{ type: 'promptString', id: 'superseded-token', password: true }], servers: { older: { ...t, env: { ...t.env, TOKEN: '${input:superseded-token}' } } } };
    await changeMcpJson(sprout, () => writeFileSync(file, JSON.stringify(slow)));
    // The hub this start answers with (no retry on a later hub, unlike listedStatus).
    const started = sprout.host.ensureServers();
    await until(() => asked.length === 1, 'the input of the first file to be asked');
    await changeMcpJson(sprout, () => writeFileSync(file, JSON.stringify({ servers: { newer: t } })));
    answer('late-answer');
    const hub = await started;
    assert.deepEqual(hub.status().map((s) => s.name), ['newer', 'editor'], 'the start that began first does not win (the editor\'s own server is always there)');
    await hub.listTools();
    assert.deepEqual(sprout.host.status().map((s) => [s.name, s.state]), [['newer', 'ready'], ['editor', 'ready']], 'the current hub (with the editor\'s own server)');
    await changeMcpJson(sprout, () => rmSync(file, { force: true }));
  });

  it('an OAuth-protected HTTP server: sign-in through the browser, then Sign Out forgets it', async () => {
    oauth = await startOAuthMcpServer();
    const sprout = await useServers({ secure: { type: 'http', url: oauth.url } });
    const opened: string[] = [];
    const redirects: string[] = [];
    sprout.mcpPrompts.openSignIn = async (server, url) => {
      opened.push(server);
      redirects.push(url.searchParams.get('redirect_uri') ?? '');
      setTimeout(() => void browse(url).catch(() => undefined), 10);
    };
    const tools = await (await sprout.host.ensureServers()).listTools();
    // The editor's own server is always there beside the configured ones.
    assert.deepEqual(tools.filter((t) => t.server !== 'editor').map((t) => t.qualifiedName), ['secure__whoami', 'secure__admin', 'secure__audit']);
    // A remote window (as this one is): the redirect is the address the editor gives the loopback listener.
    const port = /\/proxy\/(\d+)\/callback$/.exec(redirects[0] ?? '')?.[1];
    assert.ok(port !== undefined, `redirect through the window's port mapping: ${redirects[0]}`);
    const external = await vscode.env.asExternalUri(vscode.Uri.parse(`http://127.0.0.1:${port}/callback`));
    assert.equal(redirects[0], external.toString(true));
    await sprout.host.invalidateServers();
    await (await sprout.host.ensureServers()).listTools();
    assert.deepEqual(opened, ['secure'], 'the tokens in SecretStorage are reused by a new hub');
    await vscode.commands.executeCommand('sprout.signOutMcpServer', 'secure');
    await (await sprout.host.ensureServers()).listTools();
    assert.deepEqual(opened, ['secure', 'secure'], 'signed out: the next use asks again');
  });
});
