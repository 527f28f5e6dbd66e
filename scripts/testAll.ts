/**
 * `npm test`: every suite in order (build, typecheck, lint, unit, integration, editor, e2e), stopping
 * at the first failure like `&&` would, with each step's output streamed as it comes. At the end it
 * prints one `Total: N passed, N failed` line summing every suite's own count, so a reader (or CI)
 * sees the whole run's result in the last line rather than only the last suite's.
 */
import { spawn } from 'node:child_process';

const steps = ['build', 'typecheck', 'lint', 'test:unit', 'test:integration', 'test:editor', 'test:e2e'];
const only = process.env.SPROUT_TEST_STEPS?.split(',').map((s) => s.trim()).filter(Boolean);

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

/** Reads node's spec reporter (`ℹ pass N`) and the editor suites' `N passed, N failed` lines. */
function countLine(line: string, counts: Counts): void {
  const node = /^ℹ (pass|fail|skipped) (\d+)$/.exec(line.trim());
  if (node) {
    const n = Number(node[2]);
    if (node[1] === 'pass') counts.passed += n;
    else if (node[1] === 'fail') counts.failed += n;
    else counts.skipped += n;
    return;
  }
  const editor = /^(\d+) passed, (\d+) failed$/.exec(line.trim());
  if (editor) {
    counts.passed += Number(editor[1]);
    counts.failed += Number(editor[2]);
  }
}

function runStep(step: string, counts: Counts): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', step], { stdio: ['ignore', 'pipe', 'inherit'] });
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) countLine(line, counts);
    });
    child.on('close', (code, signal) => {
      if (pending !== '') countLine(pending, counts);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

async function main(): Promise<void> {
  const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  const started = Date.now();
  let failedStep: string | undefined;
  for (const step of steps.filter((s) => !only || only.includes(s))) {
    process.stdout.write(`\n=== npm run ${step}\n`);
    const code = await runStep(step, counts);
    if (code !== 0) {
      failedStep = `${step} (exit ${code})`;
      break;
    }
  }
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  process.stdout.write(`\n${failedStep ? `FAILED at ${failedStep}` : 'All steps passed'} in ${minutes} min\n`);
  process.stdout.write(`Total: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  process.exitCode = failedStep || counts.failed > 0 ? 1 : 0;
}

void main();
