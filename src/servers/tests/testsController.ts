/**
 * The state behind the `tests` server: the last result (persisted), the run in progress, background
 * runs started by workspace edits, and the `_Stop` decision. `_Stop` never waits past its budget: a
 * fresh result answers at once; otherwise a run starts (or is joined) and, if it does not finish in
 * time, the model is told to run the tests itself, with the last (stale) result as evidence. A run
 * for a state that is already stale is killed when another state's run starts. Background runs never
 * kill a run: edits during one are handled when it ends, and a state the suite itself produced (its
 * own outputs) starts no new run, so a suite that writes files cannot loop.
 */
import { join } from 'node:path';
import { detectTestCommand } from './detectTestCommand';
import { LastResultStore } from './lastResultStore';
import { renderNotRunObjection, renderRedObjection } from './renderTestResult';
import { isGreen, startTestRun, type StartedTestRun } from './testRun';
import { toStructured, type StructuredStopResult, type TestRunResult } from './testResult';
import { rememberWhetherGit, workspaceFingerprint } from './workspaceFingerprint';
import { watchWorkspace, type WorkspaceWatcher } from './workspaceWatcher';

export interface TestsControllerOptions {
  /** Real path of the workspace root. */
  rootReal: string;
  stateDir: string;
  /** Configured test command; detected from the workspace when absent. */
  command?: string;
  runTimeoutMs: number;
  hookBudgetMs: number;
  /** Debounce of background runs after edits; undefined turns watching off. */
  watchDebounceMs?: number;
}

export const NO_COMMAND_MESSAGE =
  'No test command found: the workspace has no package.json test script, jest/vitest/mocha config, pytest or unittest tests, ' +
  'Cargo.toml, go.mod or Makefile test target. Start the tests server with --command "<your test command>".';

export interface StopAnswer {
  text: string;
  structured: StructuredStopResult;
}

interface CurrentRun {
  command: string;
  fingerprint: string;
  run: StartedTestRun;
  settled: boolean;
  /** Killed because a run for a newer state started. */
  superseded: boolean;
}

function withDeadline<T>(promise: Promise<T>, deadline: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - Date.now()))));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export class TestsController {
  private last: TestRunResult | undefined;
  private current: CurrentRun | undefined;
  private readonly store: LastResultStore;
  private watcher: WorkspaceWatcher | undefined;
  private refreshPending = false;

  constructor(private readonly options: TestsControllerOptions) {
    this.store = new LastResultStore(options.stateDir);
    this.last = this.store.load();
    rememberWhetherGit(options.rootReal);
  }

  testCommand(): string | undefined {
    return this.options.command ?? detectTestCommand(this.options.rootReal);
  }

  /** Starts the background runs on edits (when watching is on). */
  startWatching(): void {
    if (this.options.watchDebounceMs === undefined || this.watcher) return;
    this.watcher = watchWorkspace({
      rootReal: this.options.rootReal,
      exclude: [this.options.stateDir],
      debounceMs: this.options.watchDebounceMs,
      onQuiet: () => void this.runInBackground(),
      onError: (error) => process.stderr.write(`sprout-mcp-tests: watching the workspace failed: ${String(error)}\n`),
    });
  }

  /** Runs the suite now (joining a run already testing this exact state). */
  async runTests(): Promise<TestRunResult> {
    const command = this.testCommand();
    if (command === undefined) throw new Error(NO_COMMAND_MESSAGE);
    // A run superseded by a newer state's run (an edit meanwhile) is followed by that state's run.
    for (let attempt = 1; ; attempt++) {
      const result = await this.start(command, await workspaceFingerprint(this.options.rootReal));
      if (result) return result;
      if (attempt >= 3) throw new Error('The test run was superseded three times by newer workspace states; run the tests again once edits settle.');
    }
  }

  /** The `_Stop` answer: empty text for no objection. Resolves within the hook budget. */
  async stopHook(): Promise<StopAnswer> {
    const deadline = Date.now() + this.options.hookBudgetMs;
    const command = this.testCommand();
    if (command === undefined) return { text: '', structured: this.notRunStructured('') };
    const fingerprint = await withDeadline(workspaceFingerprint(this.options.rootReal), deadline);
    if (fingerprint === undefined) return this.notRun(command, false);
    if (this.last && this.last.fingerprint === fingerprint && this.last.command === command) return this.decide(this.last);
    const result = await withDeadline(this.start(command, fingerprint), deadline);
    return result ? this.decide(result) : this.notRun(command, true);
  }

  isRunning(): boolean {
    return this.current !== undefined && !this.current.settled;
  }

  /** Stops watching and kills the run in progress (server shutdown). */
  stop(): void {
    void this.watcher?.close();
    this.watcher = undefined;
    if (this.current && !this.current.settled) this.current.run.command.kill();
  }

  private decide(result: TestRunResult): StopAnswer {
    const now = Date.now();
    const structured = { ...toStructured(result), stale: false, ageMs: now - result.finishedAt, running: this.isRunning() };
    return { text: isGreen(result) ? '' : renderRedObjection(result, now), structured };
  }

  /** No result for the current state in time; `changed` says whether the workspace is known to differ from the last result's. */
  private notRun(command: string, changed: boolean): StopAnswer {
    const now = Date.now();
    const runningSince = this.isRunning() ? this.current?.run.startedAt : undefined;
    const stale = this.last?.command === command ? this.last : undefined;
    const structured = stale ? { ...toStructured(stale), stale: true, ageMs: now - stale.finishedAt, running: this.isRunning() } : this.notRunStructured(command);
    const context = { ...(runningSince !== undefined ? { runningSince } : {}), ...(stale ? { stale } : {}), changed, now };
    return { text: renderNotRunObjection(context), structured };
  }

  private notRunStructured(command: string): StructuredStopResult {
    return { status: 'not_run', passed: 0, failed: 0, skipped: 0, command, exitCode: null, durationMs: 0, failures: [], stale: false, running: this.isRunning() };
  }

  /**
   * A background run for the workspace's current state, unless a result for it exists or a run is
   * in progress (then once that run ends). Called after edits settle; a hook that learns of an edit
   * another way (a file-changing tool call) can call it too.
   */
  async runInBackground(): Promise<void> {
    const command = this.testCommand();
    if (command === undefined) return;
    if (this.isRunning()) {
      this.refreshPending = true;
      return;
    }
    const fingerprint = await workspaceFingerprint(this.options.rootReal).catch(() => undefined);
    if (fingerprint === undefined) return;
    if (this.isRunning()) {
      this.refreshPending = true;
      return;
    }
    const last = this.last;
    if (last && last.command === command && (last.fingerprint === fingerprint || last.endFingerprint === fingerprint)) return;
    void this.start(command, fingerprint);
  }

  /** Resolves with the run's result, or undefined when a newer state's run superseded it. */
  private start(command: string, fingerprint: string): Promise<TestRunResult | undefined> {
    const current = this.current;
    if (current && !current.settled) {
      if (current.fingerprint === fingerprint && current.command === command) return this.outcome(current);
      current.superseded = true;
      current.run.command.kill();
    }
    const run = startTestRun({
      root: this.options.rootReal,
      command,
      fingerprint,
      timeoutMs: this.options.runTimeoutMs,
      reportDir: join(this.options.stateDir, 'reports'),
      fingerprintAfter: () => workspaceFingerprint(this.options.rootReal),
    });
    const entry: CurrentRun = { command, fingerprint, run, settled: false, superseded: false };
    this.current = entry;
    void run.result.then((result) => {
      entry.settled = true;
      // A superseded run was killed on purpose; its result says nothing about the workspace.
      if (entry.superseded) return;
      this.last = result;
      this.store.save(result);
      if (this.refreshPending) {
        this.refreshPending = false;
        void this.runInBackground();
      }
    });
    return this.outcome(entry);
  }

  private outcome(entry: CurrentRun): Promise<TestRunResult | undefined> {
    return entry.run.result.then((result) => (entry.superseded ? undefined : result));
  }
}
