/**
 * Bench 3: the cost of one agent round (AgentSession.run over OpenAiModelClient: history validation,
 * request mapping, streaming accumulation, events, gate check) with a 500-message history, against a
 * bare `openai` SDK streaming call sending the same request to the same fake server.
 *
 * Both sides do the same network work: the server (in its own process) checks that the two requests
 * of every pair are byte-identical, and both read the whole stream. Every pair starts from a freshly
 * opened session with exactly the fixture history, so the history stays at `size` messages however
 * many pairs run. The pairs alternate their order, and the result is the ratio of the medians, with
 * its spread over blocks of consecutive pairs.
 */
import OpenAI from 'openai';
import { AgentSession } from '../../src/agent/session';
import type { TranscriptStore } from '../../src/agent/ports';
import type { ChatMessage, TranscriptRecord } from '../../src/agent/types';
import { DEFAULT_SETTINGS } from '../../src/agent/settings';
import { createAgentRuntime } from '../../src/runtime/createAgentRuntime';
import { nodeClock } from '../../src/runtime/nodeClock';
import { startBenchOpenAiServer, type BenchServerStats } from './benchOpenAiServer';
import { fmt, median, pct, quantile, tempDir, timePairs, type PairedSamples } from './benchKit';

const PROMPT = 'next question';
const BLOCKS = 5;

/** Loads the fixture; what the session appends goes elsewhere, so every session opens the same. */
class FixtureTranscriptStore implements TranscriptStore {
  private readonly appended: TranscriptRecord[] = [];
  constructor(private readonly records: readonly TranscriptRecord[]) {}
  append(record: TranscriptRecord): void {
    this.appended.push(record);
  }
  async load(): Promise<TranscriptRecord[]> {
    return [...this.records];
  }
  async flush(): Promise<void> {}
}

function fixtureHistory(size: number): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (let i = 0; i < size; i++) {
    const content = `${i % 2 === 0 ? 'question' : 'answer'} ${i}: ${'lorem ipsum dolor sit amet '.repeat(8)}`;
    messages.push(i % 2 === 0 ? { role: 'user', content } : { role: 'assistant', content });
  }
  return messages;
}

function summary(samples: PairedSamples, iterations: number, size: number, server: BenchServerStats): string[] {
  const agent = median(samples.a);
  const floor = median(samples.b);
  const blockSize = Math.floor(iterations / BLOCKS);
  const blocks = Array.from({ length: BLOCKS }, (_, k) => {
    const slice = (s: number[]): number[] => s.slice(k * blockSize, (k + 1) * blockSize);
    return median(slice(samples.a)) / median(slice(samples.b));
  });
  const diffs = samples.a.map((a, i) => a - (samples.b[i] ?? NaN));
  const sorted = [...blocks].sort((x, y) => x - y);
  return [
    `agent round vs bare openai SDK call, ${size}-message history (${Math.round(server.lastBodyChars / 1024)} KB request), ${iterations} interleaved pairs, server in its own process:`,
    `  median agent ${fmt(agent)}  bare ${fmt(floor)}  overhead ${pct(agent / floor)} (target < 5%), ${fmt(agent - floor)} per round`,
    `  spread: overhead per block of ${blockSize} pairs ${sorted.map(pct).join(' ')}; paired difference median ${fmt(median(diffs))}, IQR ${fmt(quantile(diffs, 0.25))} .. ${fmt(quantile(diffs, 0.75))}`,
    `  bare IQR ${fmt(quantile(samples.b, 0.25))} .. ${fmt(quantile(samples.b, 0.75))}; ${server.requests} requests, all valid, every pair byte-identical`,
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

export async function runLoopBench(iterations = 3000, size = 500, warmup = 100): Promise<string[]> {
  const server = await startBenchOpenAiServer();
  const tmp = tempDir('sprout-loop-bench-');
  const history = fixtureHistory(size);
  const records: TranscriptRecord[] = history.map((message, at) => ({ at, event: { type: 'message', message } }));
  const settings = { ...DEFAULT_SETTINGS, model: 'bench-model', contextWindowTokens: 10_000_000 };
  let stats: BenchServerStats | undefined;
  try {
    const runtime = await createAgentRuntime({ workspaceFolder: tmp.dir, servers: [], settings, model: { baseUrl: server.url, apiKey: 'bench-key' }, sessionId: 'bench' });
    const bare = new OpenAI({ baseURL: server.url, apiKey: 'bench-key' });
    // What an SDK user who already holds the conversation sends; building it is not part of the floor.
    const messages = [
      { role: 'system' as const, content: settings.systemPrompt },
      ...history.map((m) => ({ role: m.role as 'user' | 'assistant', content: String(m.content) })),
      { role: 'user' as const, content: PROMPT },
    ];
    let session: AgentSession | undefined;
    try {
      const samples = await timePairs(
        async () => {
          const outcome = await session?.run(PROMPT);
          if (outcome?.reason !== 'end_turn' || outcome.rounds !== 1) throw new Error(`agent round failed: ${outcome?.message ?? outcome?.reason}`);
        },
        async () => {
          const stream = await bare.chat.completions.create({ model: 'bench-model', messages, stream: true, stream_options: { include_usage: true } });
          let text = '';
          for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
          if (text !== 'ok') throw new Error(`bare call got ${text}`);
        },
        {
          iterations,
          warmup,
          prepare: async () => {
            session?.dispose();
            const transcript = new FixtureTranscriptStore(records);
            session = await AgentSession.open({ sessionId: 'bench', settings, model: runtime.model, tools: runtime.hub, clock: nodeClock, transcript });
          },
        },
      );
      stats = await server.close();
      checkServer(stats, 2 * (iterations + warmup));
      return summary(samples, iterations, size, stats);
    } finally {
      session?.dispose();
      await runtime.dispose();
    }
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
