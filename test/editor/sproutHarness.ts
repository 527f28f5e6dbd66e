// Helpers for extension-host tests that drive a chat: the extension's test API, polling for a state,
// and the chat's tool cards (a card waits for approval until the test answers it through the
// controller, exactly as the webview's buttons do); the workspace settings that point the extension at
// a fake model server (`useFakeModel`, or `fakeModelForSuite` for a whole describe) and, with the
// Problems hook on, `useProblemsHook`. Bundled into each suite file that imports it.
import * as assert from 'node:assert/strict';
import { HANG_GUARD_MS, waitFor } from '../waitFor';
import * as vscode from 'vscode';
import { startFakeOpenAi, type FakeOpenAi, type FakeOpenAiOptions } from '../fakes/fakeOpenAiServer';
import type { Chat } from '../../src/extension/chat/chat';
import type { SproutApi } from '../../src/extension/extension';
import type { ChatEntry } from '../../src/shared/protocol';

export type ToolEntry = Extract<ChatEntry, { kind: 'tool' }>;

export async function sproutApi(): Promise<SproutApi> {
  const ext = vscode.extensions.getExtension<SproutApi>('sprout.sprout-agent');
  assert.ok(ext);
  return ext.activate();
}

/** Polls `probe` until it returns something (not undefined/false); fails naming `what` after `ms`. */
export async function until<T>(probe: () => T | undefined | false, what: string, ms = HANG_GUARD_MS): Promise<T> {
  return waitFor(probe, what, { idleBoundMs: ms });
}

/**
 * Changes .vscode/mcp.json and waits for the servers event that says the extension dropped the old
 * file's servers: the first one after the write (the watcher's later events for the same content
 * restart nothing), so the test's own start is never cut short by a late invalidation.
 */
export async function changeMcpJson(sprout: SproutApi, change: () => void): Promise<void> {
  let dropped = false;
  const stop = sprout.host.onServers((state) => (dropped ||= !state.started));
  try {
    change();
    await until(() => dropped, 'the servers of the old .vscode/mcp.json to be dropped');
  } finally {
    stop();
  }
}

export const toolCards = (entries: readonly ChatEntry[]): ToolEntry[] => entries.filter((e): e is ToolEntry => e.kind === 'tool');

/** Every tool card's name, status and full result text, for an assertion's message (what the model was told, not a guess). */
export function cardsText(entries: readonly ChatEntry[]): string {
  const cards = toolCards(entries);
  if (cards.length === 0) return 'no tool cards';
  return cards.map((c, i) => `tool card ${i + 1} ${c.name} [${c.status}]: ${c.result ?? '(no result yet)'}`).join('\n');
}

/** The first card waiting for the user's answer, other than those already answered. */
export function waitingCard(entries: readonly ChatEntry[], answered: ReadonlySet<string> = new Set()): ToolEntry | undefined {
  return toolCards(entries).find((e) => e.status === 'awaiting_approval' && e.approvalId !== undefined && !answered.has(e.approvalId));
}

/**
 * Approves each card that waits for the user (once, as the webview's button does) until `done`, by
 * default until the chat's turn ended with its outcome.
 */
export async function approveUntilDone(sprout: SproutApi, chat: Chat, done = () => !chat.running && chat.view.entries.some((e) => e.kind === 'outcome'), what = 'the turn to end'): Promise<void> {
  const answered = new Set<string>();
  await until(() => {
    const card = waitingCard(chat.view.entries, answered);
    if (card) {
      answered.add(card.approvalId ?? '');
      void sprout.handle({ type: 'approve', approvalId: card.approvalId ?? '', scope: 'once' });
    }
    return done();
  }, what);
}

/** Runs the tasks.json task `label` of type `sprout` as "Run Task" does, and resolves with its exit code. */
export async function runSproutTask(label: string, ms = 40_000): Promise<number | undefined> {
  const task = (await vscode.tasks.fetchTasks({ type: 'sprout' })).find((t) => t.name === label);
  assert.ok(task, `tasks.json task "${label}" was not resolved by the sprout task provider`);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`task "${label}" did not finish`)), ms);
    const listener = vscode.tasks.onDidEndTaskProcess((event) => {
      if (event.execution.task.name !== label) return;
      clearTimeout(timer);
      listener.dispose();
      resolve(event.exitCode);
    });
    vscode.tasks.executeTask(task).then(undefined, reject);
  });
}

export const sproutConfig = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('sprout');

/** Clears these workspace settings of Sprout's (the keys without `sprout.`). */
export async function resetSettings(keys: readonly string[]): Promise<void> {
  for (const key of keys) await sproutConfig().update(key, undefined, vscode.ConfigurationTarget.Workspace);
}

export interface FakeModelSettings {
  /** `mcp.builtinServers`: the bundled servers that run (each one left out is off). */
  builtin?: { workspace?: boolean; todo?: boolean; tests?: boolean };
  /** `model.provider`, waited for too. */
  provider?: 'openai';
  /** `mcp.servers`, waited for too. */
  servers?: Record<string, unknown>;
}

/** The keys `useFakeModel` sets with these settings, for `resetSettings`. */
export const fakeModelKeys = (settings: FakeModelSettings = {}): string[] => [
  'model.baseUrl',
  'model.name',
  'mcp.builtinServers',
  ...(settings.provider === undefined ? [] : ['model.provider']),
  ...(settings.servers === undefined ? [] : ['mcp.servers']),
];

/**
 * Points the workspace's settings at `fake` (its `fake-model`), waits until the extension read them,
 * and drops the servers it had so the next chat starts the ones these settings name.
 */
export async function useFakeModel(sprout: SproutApi, fake: FakeOpenAi, settings: FakeModelSettings = {}): Promise<void> {
  const target = vscode.ConfigurationTarget.Workspace;
  const { workspace = false, todo = false, tests = false } = settings.builtin ?? {};
  await sproutConfig().update('model.baseUrl', fake.url, target);
  await sproutConfig().update('model.name', 'fake-model', target);
  if (settings.provider !== undefined) await sproutConfig().update('model.provider', settings.provider, target);
  await sproutConfig().update('mcp.builtinServers', { workspace, todo, tests }, target);
  if (settings.servers !== undefined) await sproutConfig().update('mcp.servers', settings.servers, target);
  const servers = JSON.stringify(settings.servers);
  await until(
    () =>
      sprout.settings().baseUrl === fake.url &&
      (settings.provider === undefined || sprout.settings().provider === settings.provider) &&
      (settings.servers === undefined || JSON.stringify(sproutConfig().inspect('mcp.servers')?.workspaceValue) === servers),
    'the fake model settings to be read',
  );
  await sprout.host.invalidateServers();
}

export interface FakeModelSuite {
  /** The suite's fake model server (started in its `before`). */
  readonly fake: FakeOpenAi;
  /** The last user message of the last request the fake received. */
  lastUser(): string;
}

/**
 * Registers a describe's before/after hooks: starts a fake model server with `options`, points the
 * settings at it (`useFakeModel`), opens a new chat when `newChat` says so; after the suite, clears
 * those settings and closes the server. Call it inside the `describe`, after hooks that must run first.
 */
export function fakeModelForSuite(options: FakeOpenAiOptions, settings: FakeModelSettings & { newChat?: boolean } = {}): FakeModelSuite {
  let fake: FakeOpenAi | undefined;
  before(async () => {
    const sprout = await sproutApi();
    fake = await startFakeOpenAi(options);
    await useFakeModel(sprout, fake, settings);
    if (settings.newChat === true) await vscode.commands.executeCommand('sprout.newChat');
  });
  after(async () => {
    await resetSettings(fakeModelKeys(settings));
    await fake?.close();
  });
  const started = (): FakeOpenAi => {
    if (fake === undefined) throw new Error("the fake model is started in the suite's before hook");
    return fake;
  };
  return {
    get fake() {
      return started();
    },
    lastUser: () => {
      const messages = (started().chatRequests().at(-1)?.body as { messages: { role: string; content?: unknown }[] }).messages;
      return String(messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');
    },
  };
}

/** The workspace keys `useProblemsHook` sets (`clearProblemsHook` clears them). */
const problemsHookKeys = [...fakeModelKeys({ provider: 'openai' }), 'hooks.servers', 'hooks.timeoutMs', 'hooks.stopMaxRejections', 'hooks.repeatedEndTurnStops'];

/**
 * The Problems hook on (`hooks.servers` names the editor's server) with the bundled workspace server,
 * a chat on `fake`, and the `autoApprove` tools run unasked (a user setting, as the user would allow
 * them). The waits for the language server are bounded by the hook timeout: generous, on a shared machine.
 */
export async function useProblemsHook(sprout: SproutApi, fake: FakeOpenAi, autoApprove: readonly string[]): Promise<void> {
  const target = vscode.ConfigurationTarget.Workspace;
  await sproutConfig().update('hooks.servers', ['editor'], target);
  await sproutConfig().update('hooks.timeoutMs', 30_000, target);
  await sproutConfig().update('hooks.stopMaxRejections', 3, target);
  await sproutConfig().update('hooks.repeatedEndTurnStops', true, target);
  await sproutConfig().update('tools.autoApprove', autoApprove, vscode.ConfigurationTarget.Global);
  await until(() => sprout.settings().agent.hooks.timeoutMs === 30_000 && sprout.settings().autoApprove.length === autoApprove.length, 'the Problems hook settings');
  await useFakeModel(sprout, fake, { provider: 'openai', builtin: { workspace: true } });
}

/** Clears what `useProblemsHook` set. */
export async function clearProblemsHook(): Promise<void> {
  await resetSettings(problemsHookKeys);
  await sproutConfig().update('tools.autoApprove', undefined, vscode.ConfigurationTarget.Global);
}
