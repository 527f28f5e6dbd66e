/**
 * The timed half of the loop bench, run as its own process from an esbuild bundle built like the
 * shipped one (so the agent code runs as users get it, not through the TypeScript loader). It times
 * agent rounds and bare `openai` SDK calls against the server URL it is given and prints the samples
 * as one JSON line: `node loopRounds.js <url> <iterations> <warmup> <size>`.
 *
 * The rounds are those of a running chat: a session opened on the fixture history runs
 * ROUNDS_PER_SESSION prompts, each round sending what the last one sent plus the reply and the new
 * prompt, and the bare side sends the very same conversation, grown the same way. The first round of
 * each session (the one that builds the wire form of a just-opened history, as the first prompt of a
 * reopened chat does) runs untimed on both sides; then a fresh session keeps the history near `size`.
 */
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { AgentSession } from '../../src/agent/session';
import type { ChatMessage } from '../../src/agent/messages';
import type { TranscriptRecord, TranscriptStore } from '../../src/agent/events';
import { DEFAULT_SETTINGS } from '../../src/agent/settings';
import { McpHub } from '../../src/mcp/mcpHub';
import { OpenAiModelClient } from '../../src/model/openAiModelClient';
import { nodeClock } from '../../src/platform/nodeClock';
import { timePairs, type TimedPairs } from './benchStats';

const PROMPT = 'next question';
/** Ten timed rounds per session (an even count, so each order of the pair comes up equally often), after one untimed. */
const ROUNDS_PER_SESSION = 11;

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

export async function timeLoopRounds(url: string, iterations: number, warmup: number, size: number): Promise<TimedPairs> {
  const history = fixtureHistory(size);
  const records: TranscriptRecord[] = history.map((message, at) => ({ at, event: { type: 'message', message } }));
  const settings = { ...DEFAULT_SETTINGS, model: 'bench-model', contextWindowTokens: 10_000_000 };
  const hub = new McpHub([], { parentEnv: {} });
  const model = new OpenAiModelClient({ baseUrl: url, apiKey: 'bench-key' });
  const bare = new OpenAI({ baseURL: url, apiKey: 'bench-key' });
  // What an SDK user who already holds the conversation sends; building it is not part of the floor.
  const opening: ChatCompletionMessageParam[] = [
    { role: 'system' as const, content: settings.systemPrompt },
    ...history.map((m) => ({ role: m.role as 'user' | 'assistant', content: String(m.content) })),
    { role: 'user' as const, content: PROMPT },
  ];
  let messages = opening;
  let session: AgentSession | undefined;
  try {
    return await timePairs(
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
        // Untimed before each pair: a fresh session every ROUNDS_PER_SESSION pairs, else both conversations take the last reply and the next prompt.
        prepare: async (pair) => {
          if (pair % ROUNDS_PER_SESSION !== 0) {
            messages.push({ role: 'assistant', content: 'ok' }, { role: 'user', content: PROMPT });
            return;
          }
          session?.dispose();
          session = await AgentSession.open({ sessionId: 'bench', settings, model, tools: hub, clock: nodeClock, transcript: new FixtureTranscriptStore(records) });
          messages = [...opening];
        },
        untimed: (pair) => pair % ROUNDS_PER_SESSION === 0,
      },
    );
  } finally {
    session?.dispose();
    await hub.close();
  }
}

if (require.main === module) {
  const [url = '', iterations = '3000', warmup = '100', size = '500'] = process.argv.slice(2);
  timeLoopRounds(url, Number(iterations), Number(warmup), Number(size)).then(
    (samples) => process.stdout.write(`${JSON.stringify(samples)}\n`),
    (error: unknown) => {
      process.stderr.write(`loop rounds failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
