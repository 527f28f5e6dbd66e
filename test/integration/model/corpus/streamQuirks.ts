/**
 * The model-server corpus (issue 32): the stream shapes, finish reasons and usage chunks of real
 * OpenAI-compatible servers, each played by the fake OpenAI server as its public report shows it and
 * paired with what the call must end with (the form: modelCase.ts). Every case cites its source. The
 * third round's cases (from "Third round" on) were written here before any change to the product, so
 * each one's first-contact verdict was measured.
 */
import { chunk, ok, stream, streamed, type ModelCase } from './modelCase';

const call = (index: number | undefined, id: string | undefined, name: string | undefined, args: string): Record<string, unknown> => ({
  ...(index === undefined ? {} : { index }),
  ...(id === undefined ? {} : { id, type: 'function' }),
  function: { ...(name === undefined ? {} : { name }), arguments: args },
});

export const STREAM_QUIRK_CASES: ModelCase[] = [
  // ── Reasoning wherever it appears, odd chunks ───────────────────────────────────────────────────
  {
    id: 'DeepSeek-R1 distill on vLLM: reasoning then </think> with no opening tag',
    source: 'https://github.com/vllm-project/vllm/issues/13125',
    play: [streamed(['Let me think', ' about it.\n', '</think>', '\n\nThe answer is 4.'])],
    expect: { answer: 'The answer is 4.', reasoning: 'Let me think about it.\n', attempts: 1 },
  },
  {
    id: 'DeepSeek-R1 distill on vLLM (GGUF): a lone </think> cut across chunks',
    source: 'https://github.com/vllm-project/vllm/issues/14028',
    play: [streamed(['Hmm, 2+2', '.</th', 'ink>\n', 'It is 4.'])],
    expect: { answer: 'It is 4.', reasoning: 'Hmm, 2+2.', attempts: 1 },
  },
  {
    id: 'DeepSeek-R1 distill behind Open WebUI: only </think> in the answer, in one chunk with the answer',
    source: 'https://github.com/deepseek-ai/DeepSeek-R1/issues/506',
    play: [streamed(['The user greets me.</think>Hello!'])],
    expect: { answer: 'Hello!', reasoning: 'The user greets me.', attempts: 1 },
  },
  {
    id: 'DeepSeek-R1 distill on FastChat: the reply starts with reasoning, </think> after several chunks',
    source: 'https://github.com/datawhalechina/self-llm/issues/356',
    play: [streamed(['First', ', check', ' the', ' sum', '.\n</think>\n', '\n', 'Sum: 3'])],
    expect: { answer: 'Sum: 3', reasoning: 'First, check the sum.\n', attempts: 1 },
  },
  {
    id: 'a reasoning model with an opening <think>: thinking kept apart',
    source: 'https://github.com/deepseek-ai/DeepSeek-R1/issues/352',
    play: [streamed(['<think>', 'plan', '</think>', 'Answer.'])],
    expect: { answer: 'Answer.', reasoning: 'plan', attempts: 1 },
  },
  {
    id: 'an answer that only mentions the tag in prose is not reasoning',
    source: 'https://github.com/deepseek-ai/DeepSeek-R1/issues/456',
    play: [streamed(['Use the `</think>` tag to end thinking.'])],
    expect: { answer: 'Use the `</think>` tag to end thinking.', attempts: 1 },
  },
  {
    id: 'vLLM reasoning parser: reasoning_content deltas before the answer',
    source: 'https://github.com/vllm-project/vllm/issues/13125',
    play: [stream(chunk({ role: 'assistant', content: '' }), chunk({ reasoning_content: 'think' }), chunk({ reasoning_content: 'ing' }), chunk({ content: 'Yes.' }), chunk({}, 'stop'))],
    expect: { answer: 'Yes.', reasoning: 'thinking', attempts: 1 },
  },
  {
    id: 'Azure OpenAI: first chunk with empty choices and prompt_filter_results',
    source: 'https://github.com/AbanteAI/archive-old-cli-mentat/issues/429',
    play: [streamed(['Hi', ' there.'], { before: [{ id: '', choices: [], created: 0, model: '', object: '', system_fingerprint: null, prompt_filter_results: [{ prompt_index: 0, content_filter_results: { hate: { filtered: false, severity: 'safe' } } }] }] })],
    expect: { answer: 'Hi there.', attempts: 1 },
  },
  {
    id: 'Azure OpenAI: a trailing choice with content_filter_offsets and no delta',
    source: 'https://github.com/microsoft/autogen/issues/6465',
    play: [streamed(['Fine.'], { after: [{ id: '', choices: [{ finish_reason: null, index: 0, content_filter_offsets: { check_offset: 3329, start_offset: 3329, end_offset: 3438 }, content_filter_results: { hate: { filtered: false, severity: 'safe' } } }], created: 0, model: '', object: '' }] })],
    expect: { answer: 'Fine.', attempts: 1 },
  },
  {
    id: 'usage-only final chunk with empty choices (stream_options.include_usage)',
    source: 'https://github.com/pydantic/pydantic-ai/issues/164',
    play: [streamed(['Counted.'], { after: [{ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'fake-model', choices: [], usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 } }] })],
    expect: { answer: 'Counted.', attempts: 1 },
  },
  {
    id: 'OpenRouter ": OPENROUTER PROCESSING" comments before the first chunk',
    source: 'https://github.com/openai/openai-go/issues/227',
    play: [streamed(['亚'], { before: [': OPENROUTER PROCESSING', ': OPENROUTER PROCESSING'] })],
    expect: { answer: '亚', attempts: 1 },
  },
  {
    id: 'OpenRouter mid-stream error chunk (HTTP 200, error object, finish_reason "error"): a failure, retried',
    source: 'https://github.com/damianvtran/local-operator/pull/223',
    play: [
      stream(chunk({ role: 'assistant', content: '' }), chunk({}, 'error', { error: { code: 502, message: 'Provider disconnected', metadata: { error_type: 'provider_unavailable' } } })),
      ok(),
    ],
    expect: { answer: 'Done.', attempts: 2 },
  },
  {
    id: 'OpenRouter: empty choices with a top-level error ("Worker local total request limit reached"): a failure, retried',
    source: 'https://github.com/diegosouzapw/OmniRoute/pull/8210',
    play: [stream({ id: 'gen-1', object: 'chat.completion.chunk', created: 1, model: 'fake-model', choices: [], error: { code: 502, message: 'Worker local total request limit reached (33/32)' } }), ok()],
    expect: { answer: 'Done.', attempts: 2 },
  },
  {
    id: 'finish_reason "error" with no error payload and no text: not an empty success',
    source: 'https://github.com/OleksandrChekhovskyi/hax/pull/15',
    play: [stream(chunk({ role: 'assistant', content: '' }), chunk({}, 'error', { native_finish_reason: 'network_error' })), ok()],
    expect: { answer: 'Done.', attempts: 2 },
  },
  {
    id: 'LiteLLM proxy: context-window error sent as HTTP 200 event stream: final, not waited on',
    source: 'https://github.com/BerriAI/litellm/issues/6629',
    play: [{ type: 'scenario', events: [{ error: { message: 'litellm.ContextWindowExceededError: BedrockException: Context Window Error - Input is too long for requested model.', type: null, param: null, code: '400' } }] }],
    expect: { fails: /Input is too long/, attempts: 1 },
  },
  // ── Second round: tool-call deltas with nulls ───────────────────────────────────────────────────
  {
    id: 'vLLM (DeepSeek): tool-call deltas carry "content": null explicitly: the call is read, no text',
    source: 'https://github.com/vllm-project/vllm-ascend/issues/14501',
    play: [
      stream(
        chunk({ role: 'assistant', content: null, tool_calls: [{ id: 'call_v1', type: 'function', index: 0, function: { name: 'tools__echo', arguments: '' } }] }),
        chunk({ content: null, tool_calls: [{ index: 0, function: { arguments: '{"text":' } }] }),
        chunk({ content: null, tool_calls: [{ index: 0, function: { arguments: '"hi"}' } }] }),
        chunk({ content: null }, 'tool_calls'),
      ),
    ],
    expect: { answer: null, toolCalls: ['tools__echo {"text":"hi"}'], attempts: 1 },
  },
  {
    id: 'Cloudflare Workers AI: role null on deltas and tool-call id null on every continuation fragment: the arguments still add up',
    source: 'https://github.com/Effect-TS/effect/pull/8333',
    play: [
      stream(
        chunk({ role: null, content: null, tool_calls: [{ id: 'call_cf1', type: 'function', index: 0, function: { name: 'tools__echo', arguments: '{"te' } }] }),
        chunk({ role: null, content: null, tool_calls: [{ id: null, index: 0, type: 'function', function: { name: null, arguments: 'xt":"cf"}' } }] }),
        chunk({ role: null }, 'tool_calls'),
      ),
    ],
    expect: { answer: null, toolCalls: ['tools__echo {"text":"cf"}'], attempts: 1 },
  },
  {
    id: 'Open WebUI/DeepInfra: function.arguments null on the first tool-call delta: read as empty, not a crash',
    source: 'https://github.com/open-webui/open-webui/issues/27195',
    play: [
      stream(
        chunk({ role: 'assistant', content: 'Searching.' }),
        chunk({ tool_calls: [{ id: 'call_n1', type: 'function', index: 0, function: { name: 'tools__echo', arguments: null } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"text":"q"}' } }] }),
        chunk({}, 'tool_calls'),
      ),
    ],
    expect: { answer: 'Searching.', toolCalls: ['tools__echo {"text":"q"}'], attempts: 1 },
  },
  // ── Third round: tool-call deltas ───────────────────────────────────────────────────────────────
  {
    id: 'LiteLLM proxy: the tool-call id and type repeated on every argument delta: one call, arguments whole',
    source: 'https://github.com/BerriAI/litellm/issues/20480',
    play: [
      stream(
        chunk({ role: 'assistant', tool_calls: [call(0, 'call_abc', 'tools__echo', '{"te')] }),
        chunk({ tool_calls: [call(0, 'call_abc', undefined, 'xt":')] }),
        chunk({ tool_calls: [call(0, 'call_abc', undefined, '"hello"}')] }),
        chunk({}, 'tool_calls'),
      ),
    ],
    expect: { answer: null, toolCalls: ['tools__echo {"text":"hello"}'], attempts: 1 },
  },
  {
    id: 'OpenCodex proxy: the whole arguments sent again after the fragments (three chunks a call): one copy of the arguments',
    source: 'https://github.com/lidge-jun/opencodex/issues/361',
    play: [
      stream(
        chunk({ role: 'assistant', tool_calls: [call(0, 'tool_1', 'tools__echo', '')] }),
        chunk({ tool_calls: [call(0, undefined, undefined, '{"text":"ls"}')] }),
        chunk({ tool_calls: [call(0, undefined, undefined, '{"text":"ls"}')] }),
        chunk({}, 'tool_calls'),
      ),
    ],
    expect: { answer: null, toolCalls: ['tools__echo {"text":"ls"}'], attempts: 1 },
  },
  {
    id: 'codex-lb proxy: one call whose arguments are the same JSON object three times over: one copy',
    source: 'https://github.com/Soju06/codex-lb/issues/284',
    play: [
      stream(
        chunk({ role: 'assistant', tool_calls: [call(0, 'call_z', 'tools__echo', '{"text":"Zurich"}{"text":"Zurich"}{"text":"Zurich"}')] }),
        chunk({}, 'tool_calls'),
      ),
    ],
    expect: { answer: null, toolCalls: ['tools__echo {"text":"Zurich"}'], attempts: 1 },
  },
  {
    id: 'Ollama (gpt-oss): the first tool-call delta has an index and no id: the call is kept and runs, not shown as text',
    source: 'https://github.com/continuedev/continue/issues/13225',
    play: [
      stream(
        chunk({ role: 'assistant', content: '', tool_calls: [call(0, undefined, 'tools__echo', '')] }),
        chunk({ tool_calls: [call(0, undefined, undefined, '{"text":"convex/schema.ts"}')] }),
        chunk({}, 'stop'),
      ),
    ],
    expect: { answer: null, toolCalls: ['tools__echo {"text":"convex/schema.ts"}'], attempts: 1 },
  },
  {
    id: 'SGLang: two calls both at index 0, told apart only by their ids "0" and "1", each id repeated on its fragments',
    source: 'https://github.com/InternLM/lmdeploy/issues/3412',
    play: [
      stream(
        chunk({ role: 'assistant', tool_calls: [call(0, '0', 'tools__echo', '')] }),
        chunk({ tool_calls: [call(0, '0', undefined, '{"text":"a"}')] }),
        chunk({ tool_calls: [call(0, '1', 'tools__echo', '')] }),
        chunk({ tool_calls: [call(0, '1', undefined, '{"text":"b"}')] }),
        chunk({}, 'tool_calls'),
      ),
    ],
    expect: { answer: null, toolCalls: ['tools__echo {"text":"a"}', 'tools__echo {"text":"b"}'], attempts: 1 },
  },
  {
    id: 'a backend that omits index and id: two whole calls in one delta stay two calls',
    source: 'https://github.com/SamSaffron/term-llm/pull/314',
    play: [
      stream(
        chunk({ role: 'assistant', tool_calls: [call(undefined, undefined, 'tools__echo', '{"text":"one"}'), call(undefined, undefined, 'tools__echo', '{"text":"two"}')] }),
        chunk({}, 'tool_calls'),
      ),
    ],
    expect: { answer: null, toolCalls: ['tools__echo {"text":"one"}', 'tools__echo {"text":"two"}'], attempts: 1 },
  },
  // ── Finish reasons ──────────────────────────────────────────────────────────────────────────────
  {
    id: 'Together (Llama): finish_reason "eos" on a text answer: an ordinary end of the answer',
    source: 'https://github.com/vibrantlabsai/ragas/issues/1548',
    play: [stream(chunk({ role: 'assistant', content: 'Twice.' }), chunk({}, 'eos'))],
    expect: { answer: 'Twice.', finish: 'stop', attempts: 1 },
  },
  {
    id: 'a gateway ending with finish_reason "end": an ordinary end of the answer',
    source: 'https://github.com/earendil-works/pi/issues/2107',
    play: [stream(chunk({ role: 'assistant', content: 'Fine.' }), chunk({}, 'end'))],
    expect: { answer: 'Fine.', finish: 'stop', attempts: 1 },
  },
  {
    id: 'DeepSeek: finish_reason "insufficient_system_resource" (the inference was interrupted) with nothing said: a server failure, retried',
    source: 'https://api-docs.deepseek.com/api/create-chat-completion',
    play: [stream(chunk({ role: 'assistant', content: '' }), chunk({}, 'insufficient_system_resource')), ok()],
    expect: { answer: 'Done.', attempts: 2 },
  },
  // ── Usage ───────────────────────────────────────────────────────────────────────────────────────
  {
    id: 'Groq: the usage rides in x_groq.usage on the last chunk: counted, not estimated',
    source: 'https://github.com/Portkey-AI/gateway/issues/1072',
    play: [
      stream(
        chunk({ role: 'assistant', content: 'One, two.' }),
        chunk({}, 'stop', { x_groq: { id: 'req_01jt0xby4ffanamrs6m40mv0fy', usage: { queue_time: 0.02, prompt_tokens: 45, prompt_time: 0.002, completion_tokens: 12, completion_time: 0.04, total_tokens: 57, total_time: 0.042 } } }),
      ),
    ],
    expect: { answer: 'One, two.', usage: { promptTokens: 45, completionTokens: 12 }, attempts: 1 },
  },
  {
    id: 'xAI Grok: the usage in the chunk before last, the last chunk empty: the usage is kept',
    source: 'https://github.com/BerriAI/litellm/issues/17136',
    play: [
      stream(
        chunk({ role: 'assistant', content: 'Hello!' }),
        chunk({}, 'stop', { usage: { prompt_tokens: 20, completion_tokens: 3, total_tokens: 23 } }),
        { id: 'x', object: 'chat.completion.chunk', created: 1, model: 'grok', choices: [] },
      ),
    ],
    expect: { answer: 'Hello!', usage: { promptTokens: 20, completionTokens: 3 }, attempts: 1 },
  },
];
