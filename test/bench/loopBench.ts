/**
 * Bench 3: the cost of one agent round (AgentSession.run over OpenAiModelClient: history validation,
 * request mapping, streaming accumulation, events, gate check) in a running chat with a 500-message
 * history, against a bare `openai` SDK streaming call sending the same request to the same fake server.
 *
 * Both sides do the same network work: the server (in its own process) checks that the two requests
 * of every pair are byte-identical, and both read the whole stream. The rounds are a running chat's
 * (loopRounds.ts): each session opened on the fixture history runs a run of prompts, and the bare
 * side's conversation grows by the same reply and prompt; the first round of a session, which builds
 * the wire form of the whole reopened history (the bare side is handed its messages built), runs
 * untimed on both sides. The timing runs in a child process from an esbuild bundle built like the
 * shipped one, so the agent runs without the TypeScript loader's per-closure helpers. The pairs
 * alternate their order, and each result is the ratio of the medians, with its spread over blocks of
 * consecutive pairs.
 *
 * Two ratios are reported for the same pairs: CPU time (the child's `process.cpuUsage`, user + system,
 * over each sample) and wall clock. The verdict on the < 5% target is the CPU-time one: the server runs
 * in its own process, so the child's CPU time is the client side alone, what our code adds to a round,
 * and unlike wall clock it does not swing with whatever else the machine is running.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { startBenchOpenAiServer, type BenchServerStats } from './benchOpenAiServer';
import { fmt, median, pct, quantile, tempDir, type PairedSamples, type TimedPairs } from './benchHarness';

const BLOCKS = 5;

/** One measure's lines: the ratio of the medians, the verdict when `target` is set, and its spread. */
function measureLines(label: string, samples: PairedSamples, iterations: number, target: boolean): string[] {
  const agent = median(samples.a);
  const floor = median(samples.b);
  const blockSize = Math.floor(iterations / BLOCKS);
  const blocks = Array.from({ length: BLOCKS }, (_, k) => {
    const slice = (s: number[]): number[] => s.slice(k * blockSize, (k + 1) * blockSize);
    return median(slice(samples.a)) / median(slice(samples.b));
  });
  const diffs = samples.a.map((a, i) => a - (samples.b[i] ?? NaN));
  const sorted = [...blocks].sort((x, y) => x - y);
  const verdict = target ? `target < 5%, ${agent / floor < 1.05 ? 'within target' : 'OVER TARGET'}` : 'for reference: swings with the machine\'s load, the target is judged on CPU time';
  return [
    `  ${label}: median agent ${fmt(agent)}  bare ${fmt(floor)}  overhead ${pct(agent / floor)} (${verdict}), ${fmt(agent - floor)} per round`,
    `    spread: overhead per block of ${blockSize} pairs ${sorted.map(pct).join(' ')}; paired difference median ${fmt(median(diffs))}, IQR ${fmt(quantile(diffs, 0.25))} .. ${fmt(quantile(diffs, 0.75))}; bare IQR ${fmt(quantile(samples.b, 0.25))} .. ${fmt(quantile(samples.b, 0.75))}`,
  ];
}

function summary(samples: TimedPairs, iterations: number, size: number, server: BenchServerStats): string[] {
  return [
    `agent round of a running chat vs bare openai SDK call, ${size}-message history (+2 a round, 10 timed rounds a session; ${Math.round(server.lastBodyChars / 1024)} KB request), ${iterations} interleaved pairs, agent bundled like the shipped build, server in its own process:`,
    ...measureLines('CPU time of the client process (user + system)', samples.cpu, iterations, true),
    ...measureLines('wall clock', samples, iterations, false),
    `  ${server.requests} requests, all valid, every pair byte-identical`,
  ];
}

function checkServer(stats: BenchServerStats, expectedRequests: number): void {
  const problems = [
    ...(stats.requests === expectedRequests ? [] : [`expected ${expectedRequests} requests, the server saw ${stats.requests}`]),
    ...(stats.invalid === 0 ? [] : [`${stats.invalid} invalid requests`]),
    ...(stats.differingPairs === 0 ? [] : [`${stats.differingPairs} pairs sent different bodies`]),
  ];
  if (problems.length > 0) throw new Error(`loop bench is not comparing like with like: ${problems.join('; ')} (${stats.problems.join('; ')})`);
}

/** Bundles loopRounds.ts the way esbuild.mjs bundles the product (node22, CommonJS, dependencies inlined). */
function bundleLoopRounds(dir: string): string {
  const outfile = join(dir, 'loopRounds.js');
  buildSync({ entryPoints: [join(__dirname, 'loopRounds.ts')], outfile, bundle: true, platform: 'node', target: 'node22', format: 'cjs', external: ['vscode'], logLevel: 'error' });
  return outfile;
}

function runRounds(file: string, args: string[]): Promise<TimedPairs> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as TimedPairs) : reject(new Error(`loop rounds exited ${code}: ${err.trim()}`))));
  });
}

export async function runLoopBench(iterations = 3000, size = 500, warmup = 100): Promise<string[]> {
  const tmp = tempDir('sprout-loop-bench-');
  const server = await startBenchOpenAiServer();
  let stats: BenchServerStats | undefined;
  try {
    const file = bundleLoopRounds(tmp.dir);
    const samples = await runRounds(file, [server.url, String(iterations), String(warmup), String(size)]);
    stats = await server.close();
    checkServer(stats, 2 * samples.pairs);
    return summary(samples, iterations, size, stats);
  } finally {
    if (stats === undefined) await server.close().catch(() => undefined);
    tmp.remove();
  }
}

if (require.main === module) {
  const iterations = Number(process.argv[2] ?? 3000);
  runLoopBench(iterations).then(
    (lines) => process.stdout.write(`${lines.join('\n')}\n`),
    (error: unknown) => {
      process.stderr.write(`loop bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
