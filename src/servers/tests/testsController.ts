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
import { runScope } from './runScope';
import { startTestRun, type StartedTestRun } from './suiteRun';
import { workspaceCommand } from './suitePlan';
import { toStructured, type StructuredStopResult, type TestRunResult } from './testResult';
import { findWorkspace, type WorkspaceLayout } from './workspaceLayout';
import { rememberWhetherGit, workspaceFingerprint, workspaceState, type WorkspaceState } from './workspaceFingerprint';
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
  /** The whole suite after a narrowed run: the first thing stopped when anything else needs running. */
  verification: boolean;
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
  private layout: { fingerprint?: string; value: WorkspaceLayout | undefined } | undefined;
  /** A "no tests ran" objection was given and no run has executed tests since: it is not repeated. */
  private noTestsObjected = false;

  constructor(private readonly options: TestsControllerOptions) {
    this.store = new LastResultStore(options.stateDir);
    this.last = this.store.load();
    rememberWhetherGit(options.rootReal);
  }

  testCommand(): string | undefined {
    const root = this.options.rootReal;
    if (this.options.command !== undefined) return this.options.command;
    const layout = this.workspace();
    return detectTestCommand(root) ?? (layout ? workspaceCommand(root, layout) : undefined);
  }

  /** The monorepo's packages (undefined for a single package), read again when the workspace changed. */
  private workspace(fingerprint?: string): WorkspaceLayout | undefined {
    if (!this.layout || (fingerprint !== undefined && this.layout.fingerprint !== fingerprint)) {
      this.layout = { ...(fingerprint !== undefined ? { fingerprint } : {}), value: findWorkspace(this.options.rootReal) };
    }
    return this.layout.value;
  }

  /** The workspace's state, with one fingerprint per package of its (re-read) layout. */
  private async state(): Promise<WorkspaceState> {
    const dirs = (layout: WorkspaceLayout | undefined): string[] => layout?.packages.map((p) => p.dir) ?? [];
    const before = dirs(this.workspace());
    const state = await workspaceState(this.options.rootReal, before);
    const after = dirs(this.workspace(state.fingerprint));
    return after.join('\0') === before.join('\0') ? state : workspaceState(this.options.rootReal, after);
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
      const result = await this.start(command, await this.state());
      if (result) return result;
      if (attempt >= 3) throw new Error('The test run was superseded three times by newer workspace states; run the tests again once edits settle.');
    }
  }

  /** The `_Stop` answer: empty text for no objection. Resolves within the hook budget. */
  async stopHook(): Promise<StopAnswer> {
    const deadline = Date.now() + this.options.hookBudgetMs;
    const command = this.testCommand();
    if (command === undefined) return { text: '', structured: this.notRunStructured('') };
    const state = await withDeadline(this.state(), deadline);
    if (state === undefined) return this.notRun(command, false);
    if (this.last && this.last.fingerprint === state.fingerprint && this.last.command === command) return this.decide(this.last);
    const result = await withDeadline(this.start(command, state), deadline);
    return result ? this.decide(result) : this.notRun(command, true);
  }

  isRunning(): boolean {
    return this.current !== undefined && !this.current.settled;
  }

  /** Stops watching and kills the run in progress (server shutdown). */
  stop(): void {
    void this.watcher?.close();
    this.watcher = undefined;
    if (this.current && !this.current.settled) this.current.run.kill();
  }

  private decide(result: TestRunResult): StopAnswer {
    const now = Date.now();
    const structured = { ...toStructured(result), stale: false, ageMs: now - result.finishedAt, running: this.isRunning() };
    // No tests ran: the model may have filtered them away, so it hears it once; it is never a pass.
    const repeatNoTests = result.status === 'no_tests' && this.noTestsObjected;
    this.noTestsObjected = result.status === 'no_tests';
    return { text: result.status === 'passed' || repeatNoTests ? '' : renderRedObjection(result, now), structured };
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
    if (this.isRunning() && !this.current?.verification) {
      this.refreshPending = true;
      return;
    }
    const state = await this.state().catch(() => undefined);
    if (state === undefined) return;
    if (this.isRunning() && !this.current?.verification) {
      this.refreshPending = true;
      return;
    }
    const last = this.last;
    if (last && last.command === command && (last.fingerprint === state.fingerprint || last.endFingerprint === state.fingerprint)) return;
    void this.start(command, state);
  }

  /**
   * Resolves with the run's result, or undefined when a newer state's run superseded it. In a monorepo
   * an edit's packages run first; the whole suite follows once that result is in and nothing else waits.
   */
  private start(command: string, state: WorkspaceState, verification = false): Promise<TestRunResult | undefined> {
    const current = this.current;
    if (current && !current.settled) {
      if (!current.verification && current.fingerprint === state.fingerprint && current.command === command) return this.outcome(current);
      current.superseded = true;
      current.run.kill();
    }
    const layout = this.workspace(state.fingerprint);
    const scope = runScope(this.options.rootReal, command, layout, state, verification ? undefined : this.last);
    const run = startTestRun({
      root: this.options.rootReal,
      command,
      fingerprint: state.fingerprint,
      timeoutMs: this.options.runTimeoutMs,
      reportDir: join(this.options.stateDir, 'reports'),
      ...(layout ? { layout, packageFingerprints: state.parts } : {}),
      plan: scope.plan,
      ...(scope.carried ? { carried: scope.carried, checked: scope.checked ?? [] } : {}),
      fingerprintAfter: () => workspaceFingerprint(this.options.rootReal),
    });
    const entry: CurrentRun = { command, fingerprint: state.fingerprint, run, settled: false, superseded: false, verification };
    this.current = entry;
    void run.result.then((result) => this.settle(entry, result, state));
    return this.outcome(entry);
  }

  private settle(entry: CurrentRun, result: TestRunResult, state: WorkspaceState): void {
    entry.settled = true;
    // A superseded run was killed on purpose; its result says nothing about the workspace.
    if (entry.superseded) return;
    this.last = result;
    this.store.save(result);
    if (this.refreshPending) {
      this.refreshPending = false;
      void this.runInBackground();
    } else if (result.checked && !entry.verification) void this.start(entry.command, state, true);
  }

  private outcome(entry: CurrentRun): Promise<TestRunResult | undefined> {
    return entry.run.result.then((result) => (entry.superseded ? undefined : result));
  }
}
