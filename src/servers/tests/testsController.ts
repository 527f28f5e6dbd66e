/**
 * The state behind the `tests` server: the last result (persisted, so a restarted server still knows
 * it), the run in progress, and the `_Stop` decision. `_Stop` never waits past its budget: a fresh
 * result answers at once; otherwise a run starts (or is joined) in the background and, if it does not
 * finish within the budget, the model is told to run the tests itself. A run for a state that is
 * already stale is killed rather than left to compete with the new one.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectTestCommand } from './detectTestCommand';
import { renderNotRunObjection, renderRedObjection } from './renderTestResult';
import { isGreen, startTestRun, type StartedTestRun, type TestRunResult } from './testRun';
import { workspaceFingerprint } from './workspaceFingerprint';

export interface TestsControllerOptions {
  /** Real path of the workspace root. */
  rootReal: string;
  stateDir: string;
  /** Configured test command; detected from the workspace when absent. */
  command?: string;
  runTimeoutMs: number;
  hookBudgetMs: number;
}

export const NO_COMMAND_MESSAGE =
  'No test command found: the workspace has no package.json test script, pytest setup, Cargo.toml, go.mod or Makefile test target. ' +
  'Start the tests server with --command "<your test command>".';

interface CurrentRun {
  command: string;
  fingerprint: string;
  run: StartedTestRun;
  settled: boolean;
}

function withDeadline<T>(promise: Promise<T>, deadline: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - Date.now()))));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export class TestsController {
  private last: TestRunResult | undefined;
  private current: CurrentRun | undefined;
  private readonly stateFile: string;

  constructor(private readonly options: TestsControllerOptions) {
    this.stateFile = join(options.stateDir, 'last-test-run.json');
    this.last = this.loadLast();
  }

  testCommand(): string | undefined {
    return this.options.command ?? detectTestCommand(this.options.rootReal);
  }

  /** Runs the suite now (joining a run already testing this exact state). */
  async runTests(): Promise<TestRunResult> {
    const command = this.testCommand();
    if (command === undefined) throw new Error(NO_COMMAND_MESSAGE);
    return this.start(command, await workspaceFingerprint(this.options.rootReal));
  }

  /** The `_Stop` answer: empty for no objection. Resolves within the hook budget. */
  async stopHook(): Promise<string> {
    const deadline = Date.now() + this.options.hookBudgetMs;
    const command = this.testCommand();
    if (command === undefined) return '';
    const fingerprint = await withDeadline(workspaceFingerprint(this.options.rootReal), deadline);
    if (fingerprint === undefined) return renderNotRunObjection(this.isRunning());
    if (this.last && this.last.fingerprint === fingerprint && this.last.command === command) return this.decide(this.last);
    const result = await withDeadline(this.start(command, fingerprint), deadline);
    return result ? this.decide(result) : renderNotRunObjection(true);
  }

  isRunning(): boolean {
    return this.current !== undefined && !this.current.settled;
  }

  /** Kills the run in progress (server shutdown). */
  stop(): void {
    if (this.current && !this.current.settled) this.current.run.command.kill();
  }

  private decide(result: TestRunResult): string {
    return isGreen(result) ? '' : renderRedObjection(result);
  }

  private start(command: string, fingerprint: string): Promise<TestRunResult> {
    const current = this.current;
    if (current && !current.settled) {
      if (current.fingerprint === fingerprint && current.command === command) return current.run.result;
      current.run.command.kill();
    }
    const entry: CurrentRun = { command, fingerprint, run: startTestRun(this.options.rootReal, command, fingerprint, this.options.runTimeoutMs), settled: false };
    this.current = entry;
    void entry.run.result.then((result) => {
      entry.settled = true;
      // A superseded run was killed on purpose; its result says nothing about the workspace.
      if (this.current !== entry) return;
      this.last = result;
      this.saveLast(result);
    });
    return entry.run.result;
  }

  private loadLast(): TestRunResult | undefined {
    try {
      const parsed = JSON.parse(readFileSync(this.stateFile, 'utf8')) as Partial<TestRunResult>;
      return typeof parsed.fingerprint === 'string' && typeof parsed.command === 'string' ? (parsed as TestRunResult) : undefined;
    } catch {
      return undefined;
    }
  }

  private saveLast(result: TestRunResult): void {
    try {
      mkdirSync(this.options.stateDir, { recursive: true });
      const temp = `${this.stateFile}.${process.pid}.tmp`;
      writeFileSync(temp, JSON.stringify(result));
      renameSync(temp, this.stateFile);
    } catch {
      // Persistence is a convenience: without it a restarted server just runs the suite again.
    }
  }
}
