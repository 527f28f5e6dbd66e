// Helpers for extension-host tests that drive a chat: the extension's test API, polling for a state,
// and the chat's tool cards (a card waits for approval until the test answers it through the
// controller, exactly as the webview's buttons do). Bundled into each suite file that imports it.
import * as assert from 'node:assert/strict';
import { HANG_GUARD_MS, waitFor } from '../waitFor';
import * as vscode from 'vscode';
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
