// What the e2e chats run against: the hook server (FakeHookServer under tsx, objecting `times` times at
// `_Stop` with `objection`) as the `sprout.mcp.servers` value that starts it as the server `hooks`, and
// the scenario around a chat (workspace, fake model, code-server with the packaged extension).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startFakeOpenAi, type FakeOpenAi, type FakeResponse } from '../../fakes/fakeOpenAiServer';
import { hookServerConfig, hookServerMcpConfig, objectTimes, type HookServerConfig } from '../../fakes/hookServer';
import { startCodeServerWithVsix, type CodeServerSession } from './codeServerWithVsix';
import { tearDown } from './teardown';
import { openSproutContainer } from './workbench';

export function objectingHookServer(objection: string, times = 1): Record<string, unknown> {
  return hookServerSetting({ _Stop: objectTimes(objection, times) });
}

/** The `sprout.mcp.servers` value that starts a FakeHookServer with these hooks as the server `hooks`. */
export function hookServerSetting(hooks: NonNullable<HookServerConfig['hooks']>): Record<string, unknown> {
  return { hooks: hookServerMcpConfig('hooks', hookServerConfig({ hooks })).transport };
}

export interface ChatScenario {
  session: CodeServerSession;
  fake: FakeOpenAi;
  workspace: string;
  stop(): Promise<void>;
}

/**
 * A chat e2e's world: a temp workspace holding `files` (path -> text), the fake model playing
 * `responses` (its URL set as the endpoint), code-server with the packaged extension and
 * `userSettings`, and the Sprout container opened. `stop` takes all of it down again.
 */
export async function startChatScenario(options: {
  name: string;
  files?: Record<string, string>;
  responses: FakeResponse[];
  userSettings?: Record<string, unknown>;
  trust?: 'untrusted';
}): Promise<ChatScenario> {
  const workspace = mkdtempSync(join(tmpdir(), `sprout-e2e-${options.name}-`));
  for (const [path, text] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(workspace, path)), { recursive: true });
    writeFileSync(join(workspace, path), text);
  }
  const fake = await startFakeOpenAi({ responses: options.responses });
  const userSettings = { 'sprout.model.baseUrl': fake.url, ...options.userSettings };
  const session = await startCodeServerWithVsix({ workspace, userSettings, ...(options.trust ? { trust: options.trust } : {}) });
  await openSproutContainer(session.page);
  return {
    session,
    fake,
    workspace,
    stop: () =>
      tearDown(
        ['code-server', () => session.stop()],
        ['the fake model', () => fake.close()],
        ['the workspace', () => rmSync(workspace, { recursive: true, force: true })],
      ),
  };
}
