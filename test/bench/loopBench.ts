/**
 * Bench 3: the cost of one agent round (AgentSession.run over OpenAiModelClient: history validation,
 * request mapping, streaming accumulation, events, gate check) with a 500-message history, against a
 * bare `openai` SDK streaming call sending the same messages to the same fake server.
 */
import OpenAI from 'openai';
import type { TranscriptStore } from '../../src/agent/ports';
import type { TranscriptRecord } from '../../src/agent/types';
import { createAgentRuntime } from '../../src/runtime/createAgentRuntime';
import { fakeReply, startFakeOpenAi } from '../fakes/fakeOpenAiServer';
import { DEFAULT_SETTINGS } from '../../src/agent/settings';
import { fmt, pct, tempDir, timeSideBySide } from './benchKit';

class InMemoryTranscriptStore implements TranscriptStore {
  constructor(private readonly records: TranscriptRecord[]) {}
  append(record: TranscriptRecord): void {
    this.records.push(record);
  }
  async load(): Promise<TranscriptRecord[]> {
    return [...this.records];
  }
  async flush(): Promise<void> {}
}

function history(size: number): TranscriptRecord[] {
  const records: TranscriptRecord[] = [];
  for (let i = 0; i < size; i++) {
    const content = `${i % 2 === 0 ? 'question' : 'answer'} ${i}: ${'lorem ipsum dolor sit amet '.repeat(8)}`;
    records.push({ at: i, event: { type: 'message', message: i % 2 === 0 ? { role: 'user', content } : { role: 'assistant', content } } });
  }
  return records;
}

export async function runLoopBench(iterations = 150, size = 500): Promise<string[]> {
  const fake = await startFakeOpenAi();
  fake.setResponder(() => fakeReply.text('ok'));
  const tmp = tempDir('sprout-loop-bench-');
  const settings = { ...DEFAULT_SETTINGS, model: 'bench-model', contextWindowTokens: 10_000_000 };
  const runtime = await createAgentRuntime({
    workspaceFolder: tmp.dir,
    servers: [],
    settings,
    model: { baseUrl: fake.url, apiKey: 'bench-key' },
    sessionId: 'bench',
    transcript: new InMemoryTranscriptStore(history(size)),
  });
  const bare = new OpenAI({ baseURL: fake.url, apiKey: 'bench-key' });
  try {
    const timings = await timeSideBySide(
      {
        agent: async () => {
          const outcome = await runtime.session.run('next question');
          if (outcome.reason !== 'end_turn') throw new Error(`agent round failed: ${outcome.message ?? outcome.reason}`);
        },
        bare: async () => {
          const messages = [
            { role: 'system' as const, content: settings.systemPrompt },
            ...runtime.session.state.history.map((m) => ({ role: m.role as 'user' | 'assistant', content: String(m.content) })),
            { role: 'user' as const, content: 'next question' },
          ];
          const stream = await bare.chat.completions.create({ model: 'bench-model', messages, stream: true, stream_options: { include_usage: true } });
          let text = '';
          for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
          if (text !== 'ok') throw new Error(`bare call got ${text}`);
        },
      },
      iterations,
    );
    const agent = timings.agent?.medianMs ?? NaN;
    const floor = timings.bare?.medianMs ?? NaN;
    return [
      `agent round vs bare openai SDK call, ${size}-message history (medians of ${iterations}):`,
      `  agent ${fmt(agent)}  bare ${fmt(floor)}  overhead ${pct(agent / floor)} (target < 5%), ${fmt(agent - floor)} per round`,
    ];
  } finally {
    await runtime.dispose();
    await fake.close();
    tmp.remove();
  }
}
