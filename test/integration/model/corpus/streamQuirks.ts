/**
 * The model-server corpus, third round (issue 32): stream shapes, finish reasons and usage chunks
 * of real OpenAI-compatible servers, collected after the first two rounds and written here before
 * any change to the product, so each case's first-contact verdict was measured. Same form as
 * modelServers.ts (one response per attempt, the outcome the call must have); every case cites its
 * source.
 */
import { chunk, type ModelCase } from './modelServers';

const call = (index: number | undefined, id: string | undefined, name: string | undefined, args: string): Record<string, unknown> => ({
  ...(index === undefined ? {} : { index }),
  ...(id === undefined ? {} : { id, type: 'function' }),
  function: { ...(name === undefined ? {} : { name }), arguments: args },
});

export const STREAM_QUIRK_CASES: ModelCase[] = [
  // ── Tool-call deltas ────────────────────────────────────────────────────────────────────────────
  {
    id: 'LiteLLM proxy: the tool-call id and type repeated on every argument delta: one call, arguments whole',
    source: 'https://github.com/BerriAI/litellm/issues/20480',
    play: [
      {
        type: 'scenario',
        events: [
          chunk({ role: 'assistant', tool_calls: [call(0, 'call_abc', 'tools__echo', '{"te')] }),
          chunk({ tool_calls: [call(0, 'call_abc', undefined, 'xt":')] }),
          chunk({ tool_calls: [call(0, 'call_abc', undefined, '"hello"}')] }),
          chunk({}, 'tool_calls'),
          '[DONE]',
        ],
      },
    ],
    expect: { answer: null, toolCalls: ['tools__echo {"text":"hello"}'], attempts: 1 },
  },
  {
    id: 'OpenCodex proxy: the whole arguments sent again after the fragments (three chunks a call): one copy of the arguments',
    source: 'https://github.com/lidge-jun/opencodex/issues/361',
    play: [
      {
        type: 'scenario',
        events: [
          chunk({ role: 'assistant', tool_calls: [call(0, 'tool_1', 'tools__echo', '')] }),
          chunk({ tool_calls: [call(0, undefined, undefined, '{"text":"ls"}')] }),
          chunk({ tool_calls: [call(0, undefined, undefined, '{"text":"ls"}')] }),
          chunk({}, 'tool_calls'),
          '[DONE]',
        ],
      },
    ],
    expect: { answer: null, toolCalls: ['tools__echo {"text":"ls"}'], attempts: 1 },
  },
  {
    id: 'codex-lb proxy: one call whose arguments are the same JSON object three times over: one copy',
    source: 'https://github.com/Soju06/codex-lb/issues/284',
    play: [
      {
        type: 'scenario',
        events: [
          chunk({ role: 'assistant', tool_calls: [call(0, 'call_z', 'tools__echo', '{"text":"Zurich"}{"text":"Zurich"}{"text":"Zurich"}')] }),
          chunk({}, 'tool_calls'),
          '[DONE]',
        ],
      },
    ],
    expect: { answer: null, toolCalls: ['tools__echo {"text":"Zurich"}'], attempts: 1 },
  },
  {
    id: 'Ollama (gpt-oss): the first tool-call delta has an index and no id: the call is kept and runs, not shown as text',
    source: 'https://github.com/continuedev/continue/issues/13225',
    play: [
      {
        type: 'scenario',
        events: [
          chunk({ role: 'assistant', content: '', tool_calls: [call(0, undefined, 'tools__echo', '')] }),
          chunk({ tool_calls: [call(0, undefined, undefined, '{"text":"convex/schema.ts"}')] }),
          chunk({}, 'stop'),
          '[DONE]',
        ],
      },
    ],
    expect: { answer: null, toolCalls: ['tools__echo {"text":"convex/schema.ts"}'], attempts: 1 },
  },
  {
    id: 'SGLang: two calls both at index 0, told apart only by their ids "0" and "1", each id repeated on its fragments',
    source: 'https://github.com/InternLM/lmdeploy/issues/3412',
    play: [
      {
        type: 'scenario',
        events: [
          chunk({ role: 'assistant', tool_calls: [call(0, '0', 'tools__echo', '')] }),
          chunk({ tool_calls: [call(0, '0', undefined, '{"text":"a"}')] }),
          chunk({ tool_calls: [call(0, '1', 'tools__echo', '')] }),
          chunk({ tool_calls: [call(0, '1', undefined, '{"text":"b"}')] }),
          chunk({}, 'tool_calls'),
          '[DONE]',
        ],
      },
    ],
    expect: { answer: null, toolCalls: ['tools__echo {"text":"a"}', 'tools__echo {"text":"b"}'], attempts: 1 },
  },
  {
    id: 'a backend that omits index and id: two whole calls in one delta stay two calls',
    source: 'https://github.com/SamSaffron/term-llm/pull/314',
    play: [
      {
        type: 'scenario',
        events: [
          chunk({ role: 'assistant', tool_calls: [call(undefined, undefined, 'tools__echo', '{"text":"one"}'), call(undefined, undefined, 'tools__echo', '{"text":"two"}')] }),
          chunk({}, 'tool_calls'),
          '[DONE]',
        ],
      },
    ],
    expect: { answer: null, toolCalls: ['tools__echo {"text":"one"}', 'tools__echo {"text":"two"}'], attempts: 1 },
  },
  // ── Finish reasons ──────────────────────────────────────────────────────────────────────────────
  {
    id: 'Together (Llama): finish_reason "eos" on a text answer: an ordinary end of the answer',
    source: 'https://github.com/vibrantlabsai/ragas/issues/1548',
    play: [{ type: 'scenario', events: [chunk({ role: 'assistant', content: 'Twice.' }), chunk({}, 'eos'), '[DONE]'] }],
    expect: { answer: 'Twice.', finish: 'stop', attempts: 1 },
  },
  {
    id: 'a gateway ending with finish_reason "end": an ordinary end of the answer',
    source: 'https://github.com/earendil-works/pi/issues/2107',
    play: [{ type: 'scenario', events: [chunk({ role: 'assistant', content: 'Fine.' }), chunk({}, 'end'), '[DONE]'] }],
    expect: { answer: 'Fine.', finish: 'stop', attempts: 1 },
  },
  {
    id: 'DeepSeek: finish_reason "insufficient_system_resource" (the inference was interrupted) with nothing said: a server failure, retried',
    source: 'https://api-docs.deepseek.com/api/create-chat-completion',
    play: [{ type: 'scenario', events: [chunk({ role: 'assistant', content: '' }), chunk({}, 'insufficient_system_resource'), '[DONE]'] }, { type: 'reply', text: 'Done.' }],
    expect: { answer: 'Done.', attempts: 2 },
  },
  // ── Usage ───────────────────────────────────────────────────────────────────────────────────────
  {
    id: 'Groq: the usage rides in x_groq.usage on the last chunk: counted, not estimated',
    source: 'https://github.com/Portkey-AI/gateway/issues/1072',
    play: [
      {
        type: 'scenario',
        events: [
          chunk({ role: 'assistant', content: 'One, two.' }),
          chunk({}, 'stop', { x_groq: { id: 'req_01jt0xby4ffanamrs6m40mv0fy', usage: { queue_time: 0.02, prompt_tokens: 45, prompt_time: 0.002, completion_tokens: 12, completion_time: 0.04, total_tokens: 57, total_time: 0.042 } } }),
          '[DONE]',
        ],
      },
    ],
    expect: { answer: 'One, two.', usage: { promptTokens: 45, completionTokens: 12 }, attempts: 1 },
  },
  {
    id: 'xAI Grok: the usage in the chunk before last, the last chunk empty: the usage is kept',
    source: 'https://github.com/BerriAI/litellm/issues/17136',
    play: [
      {
        type: 'scenario',
        events: [
          chunk({ role: 'assistant', content: 'Hello!' }),
          chunk({}, 'stop', { usage: { prompt_tokens: 20, completion_tokens: 3, total_tokens: 23 } }),
          { id: 'x', object: 'chat.completion.chunk', created: 1, model: 'grok', choices: [] },
          '[DONE]',
        ],
      },
    ],
    expect: { answer: 'Hello!', usage: { promptTokens: 20, completionTokens: 3 }, attempts: 1 },
  },
];
