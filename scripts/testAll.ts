/**
 * `npm test`: every suite in order (build, typecheck, lint, unit, integration, editor, e2e), stopping
 * at the first failure like `&&` would, with each step's output streamed as it comes. At the end it
 * prints each step's time and counts, then one `Total: N passed, N failed` line summing every suite's
 * own count, so a reader (or CI) sees the whole run's result in the last line rather than only the
 * last suite's. Every step runs on a Node the product supports (suiteNode.ts: this one, or Node 22
 * fetched into the user cache). The rules (step selection, counting, verdict) are in testSteps.ts.
 */
import { spawn } from 'node:child_process';
import { delimiter } from 'node:path';
import { suiteNode } from './suiteNode';
import { countLine, emptyCounts, failedTestOf, failedTestsBlock, failureOf, selectSteps, stepLine, totals, type Counts, type Step, type StepResult } from './testSteps';

function runStep(step: Step, counts: Counts, failed: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', step], { stdio: ['ignore', 'pipe', 'inherit'], env });
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        countLine(line, counts);
        const title = failedTestOf(line);
        if (title !== undefined) failed.push(`${step}: ${title}`);
      }
    });
    child.on('close', (code, signal) => {
      if (pending !== '') countLine(pending, counts);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

async function main(): Promise<void> {
  let steps: Step[];
  try {
    steps = selectSteps(process.env.SPROUT_TEST_STEPS);
  } catch (error) {
    process.stderr.write(`npm test: ${(error as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  const started = Date.now();
  let env: NodeJS.ProcessEnv;
  try {
    const node = suiteNode((m) => process.stdout.write(`${m}\n`));
    env = { ...process.env, ...node.env, SPROUT_SUITE_NODE: node.version, ...(node.pathEntry === undefined ? {} : { PATH: `${node.pathEntry}${delimiter}${process.env.PATH ?? ''}` }) };
    process.stdout.write(`npm test: the suites run on Node ${node.version} (${node.bin})\n`);
  } catch (error) {
    process.stderr.write(`npm test: cannot get a Node the product supports: ${(error as Error).message}\n`);
    process.exitCode = 1;
    return;
  }
  const results: StepResult[] = [];
  const failedTests: string[] = [];
  for (const step of steps) {
    process.stdout.write(`\n=== npm run ${step}\n`);
    const counts = emptyCounts();
    const stepStarted = Date.now();
    const exitCode = await runStep(step, counts, failedTests, env);
    results.push({ step, exitCode, counts, durationMs: Date.now() - stepStarted });
    if (failureOf(results) !== undefined) break;
  }
  const failure = failureOf(results);
  const sum = totals(results);
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  process.stdout.write(`\n${failedTestsBlock(failedTests)}Steps:\n${results.map(stepLine).join('\n')}\n`);
  process.stdout.write(`${failure ? `FAILED at ${failure}` : `All ${results.length} steps passed`} in ${minutes} min\n`);
  process.stdout.write(`Total: ${sum.passed} passed, ${sum.failed} failed, ${sum.skipped} skipped\n`);
  process.exitCode = failure ? 1 : 0;
}

void main();
