/**
 * Questions to the user that are on screen, by what they ask about. A modal cannot be dismissed by
 * VS Code (showWarningMessage takes no CancellationToken), so a server build that was superseded
 * while one is open leaves it open; the build after it that needs the same answer waits for that
 * question instead of opening a second one. Nothing new is asked once the asking build's `signal`
 * has aborted. What an answer means, and whether it is kept, is the asker's (consentStore.ts,
 * secretConsent.ts, agentHookFiles.ts).
 */
export class OpenQuestions<T> {
  private readonly open = new Map<string, Promise<T>>();

  /** The answer to the question open under `key`, or to `question()` asked now. */
  ask(key: string, question: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const pending = this.open.get(key);
    if (pending !== undefined) return pending;
    signal?.throwIfAborted();
    const asked = question().finally(() => this.open.delete(key));
    this.open.set(key, asked);
    return asked;
  }
}
