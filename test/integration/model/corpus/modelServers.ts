/**
 * The model-server corpus (issue 32): what real servers answered with a status and an error body,
 * taken from public reports, each played by the fake OpenAI server as the report shows it (status,
 * body, headers) and paired with what Sprout must do. Every case cites its source. Stream shapes,
 * finish reasons and usage: streamQuirks.ts; the case's form: modelCase.ts; the runner:
 * modelServerCorpus.test.ts. A case is data, so a new report is a few lines here.
 */
import { err, MAX_ATTEMPTS, ok, openAiErr, times, type ModelCase } from './modelCase';

const geminiQuota = (retryDelay: string, quotaId: string): unknown => [
  {
    error: {
      code: 429,
      message: `You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_input_token_count, limit: 250000\nPlease retry in ${retryDelay}.`,
      status: 'RESOURCE_EXHAUSTED',
      details: [
        { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_input_token_count', quotaId }] },
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: retryDelay.replace(/\.\d+s$/, 's') },
      ],
    },
  },
];

export const MODEL_CASES: ModelCase[] = [
  // ── Transient or final: structured hints before words ──────────────────────────────────────────
  {
    id: 'gemini per-minute quota 429 worded "quota ... billing" with RetryInfo: waited and retried',
    source: 'https://github.com/RooCodeInc/Roo-Code/issues/3883',
    play: [err(429, geminiQuota('26s', 'GenerateContentInputTokensPerModelPerMinute-FreeTier')), ok()],
    expect: { answer: 'Done.', attempts: 2, waitedMs: [26_000] },
  },
  {
    id: 'gemini paid-tier per-minute quota 429 with "Please retry in 47.43s": waited and retried',
    source: 'https://github.com/browserbase/mcp-server-browserbase/issues/129',
    play: [err(429, geminiQuota('47.434392449s', 'GenerateContentPaidTierInputTokensPerModelPerMinute')), ok()],
    // RetryInfo (structured, "47s") outranks the words ("47.43s").
    expect: { answer: 'Done.', attempts: 2, waitedMs: [47_000] },
  },
  {
    id: 'Gemini quota 429 relayed by an OpenAI-compatible proxy with the Google body as a string: waited and retried',
    source: 'https://github.com/RooCodeInc/Roo-Code/issues/3883',
    play: [err(429, openAiErr(JSON.stringify((geminiQuota('26s', 'GenerateContentInputTokensPerModelPerMinute-FreeTier') as unknown[])[0]), null, 429)), ok()],
    expect: { answer: 'Done.', attempts: 2, waitedMs: [26_000] },
  },
  {
    id: 'Gemini free-tier per-day quota 429 (quotaId ...PerDay...) with RetryInfo 36s: final, not retried every 36 s',
    source: 'https://github.com/diegosouzapw/OmniRoute/issues/9504',
    play: times(MAX_ATTEMPTS, err(429, geminiQuota('36.429760048s', 'GenerateRequestsPerDayPerProjectPerModel-FreeTier'))),
    expect: { fails: /daily quota/, kind: 'rate_limit', attempts: 1 },
  },
  {
    id: 'OpenAI insufficient_quota 429: billing, never retried',
    source: 'https://github.com/langchain-ai/langchainjs/issues/1929',
    play: [err(429, openAiErr('You exceeded your current quota, please check your plan and billing details.', 'insufficient_quota', null))],
    expect: { fails: /billing reasons/, kind: 'billing', attempts: 1 },
  },
  {
    id: 'OpenRouter 402 "requires more credits, or fewer max_tokens": billing, never retried',
    source: 'https://github.com/babikov/doka-site/issues/7',
    play: [err(402, { error: { message: 'This request requires more credits, or fewer max_tokens. You requested up to 65536 tokens, but can only afford 10114. To increase, visit https://openrouter.ai/settings/credits and upgrade to a paid account', code: 402, metadata: { provider_name: null } }, user_id: 'user_' })],
    expect: { fails: /billing reasons/, kind: 'billing', attempts: 1 },
  },
  {
    id: 'Ollama 500 "model requires more system memory": final, not retried, says what to change',
    source: 'https://github.com/continuedev/continue/issues/12795',
    play: times(MAX_ATTEMPTS, err(500, { error: 'model requires more system memory (7.5 GiB) than is available (5.2 GiB)' })),
    expect: { fails: /model requires more system memory[\s\S]*(memory|smaller)/, kind: 'server', attempts: 1 },
  },
  {
    id: 'Ollama /v1 500 with the same memory refusal in OpenAI shape: final',
    source: 'https://github.com/home-assistant/core/issues/139085',
    play: times(MAX_ATTEMPTS, err(500, openAiErr('model requires more system memory (7.3 GiB) than is available (6.0 GiB)', 'api_error'))),
    expect: { fails: /requires more system memory/, attempts: 1 },
  },
  {
    id: 'Ollama 500 runner killed by cudaMalloc out of memory: final',
    source: 'https://github.com/ollama/ollama/issues/5113',
    play: times(MAX_ATTEMPTS, err(500, openAiErr('llama runner process has terminated: signal: aborted (core dumped) cudaMalloc failed: out of memory', 'api_error'))),
    expect: { fails: /out of memory/, attempts: 1 },
  },
  {
    id: 'vLLM 500 torch.OutOfMemoryError (OOM persists across requests): final',
    source: 'https://github.com/vllm-project/vllm/issues/6907',
    play: times(MAX_ATTEMPTS, err(500, { object: 'error', message: 'CUDA out of memory. Tried to allocate 518.00 MiB. GPU 0 has a total capacty of 21.67 GiB of which 4.06 MiB is free.', type: 'InternalServerError', param: null, code: 500 })),
    expect: { fails: /CUDA out of memory/, attempts: 1 },
  },
  {
    id: 'llama.cpp exceed_context_size_error as HTTP 500 (older builds): final, names the context size',
    source: 'https://github.com/ggml-org/llama.cpp/pull/15780',
    play: times(MAX_ATTEMPTS, err(500, { error: { code: 500, message: 'the request exceeds the available context size. try increasing the context size or enable context shift', type: 'exceed_context_size_error', n_prompt_tokens: 1407, n_ctx: 256 } })),
    expect: { fails: /exceeds the available context size/, attempts: 1 },
  },
  {
    id: 'llama.cpp exceed_context_size_error 400: final',
    source: 'https://github.com/arbs-io/github-copilot-llm-gateway/issues/73',
    play: [err(400, { error: { code: 400, message: 'request (8708 tokens) exceeds the available context size (8192 tokens), try increasing it', type: 'exceed_context_size_error', n_prompt_tokens: 8708, n_ctx: 8192 } })],
    expect: { fails: /exceeds the available context size/, attempts: 1 },
  },
  {
    id: 'vLLM 400 maximum context length: final, the provider words kept',
    source: 'https://github.com/vllm-project/vllm/issues/20409',
    play: [err(400, { object: 'error', message: "This model's maximum context length is 16384 tokens. However, you requested 122946 tokens (112946 in the messages, 10000 in the completion). Please reduce the length of the messages or completion.", type: 'BadRequestError', param: null, code: 400 })],
    expect: { fails: /maximum context length is 16384 tokens/, kind: 'bad_request', attempts: 1 },
  },
  {
    id: 'LiteLLM 400 wrapping Anthropic "prompt is too long": final',
    source: 'https://github.com/OpenHands/OpenHands/issues/5350',
    play: [err(400, openAiErr('litellm.BadRequestError: litellm.ContextWindowExceededError: AnthropicError - {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 209303 tokens > 200000 maximum"}}', null, '400'))],
    expect: { fails: /prompt is too long/, attempts: 1 },
  },
  {
    id: 'Gemini 400 input token count exceeds the maximum: final',
    source: 'https://github.com/BerriAI/litellm/issues/18282',
    play: [err(400, [{ error: { code: 400, message: 'The input token count (2800010) exceeds the maximum number of tokens allowed (1048575).', status: 'INVALID_ARGUMENT' } }])],
    expect: { fails: /exceeds the maximum number of tokens/, attempts: 1 },
  },
  {
    id: 'LiteLLM 400 carrying Anthropic "reached your specified API usage limits": final, not retried',
    source: 'https://github.com/BerriAI/litellm/issues/37599',
    play: [err(400, { code: '400', message: 'litellm.BadRequestError: AnthropicException - You have reached your specified API usage limits. You will regain access on 2026-09-01 at 00:00 UTC.' })],
    expect: { fails: /usage limits/, attempts: 1 },
  },
  {
    id: 'llama.cpp 503 "Loading model" (unavailable_error): transient, retried',
    source: 'https://github.com/mostlygeek/llama-swap/issues/146',
    play: [err(503, { error: { code: 503, message: 'Loading model', type: 'unavailable_error' } }), ok()],
    expect: { answer: 'Done.', attempts: 2 },
  },
  {
    id: 'Anthropic overloaded_error 529 through a relay: transient, retried',
    source: 'https://github.com/anthropics/claude-code/issues/35792',
    play: [err(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }), ok()],
    expect: { answer: 'Done.', attempts: 2 },
  },
  {
    id: 'Together 503 "server is overloaded": transient, retried',
    source: 'https://github.com/cline/cline/issues/440',
    play: [err(503, openAiErr('server is overloaded', 'server_error')), ok()],
    expect: { answer: 'Done.', attempts: 2 },
  },
  {
    id: 'Azure OpenAI 429 token rate limit with Retry-After: the server wait is honoured',
    source: 'https://github.com/openai/openai-node/issues/1108',
    play: [
      err(429, openAiErr('Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-02-15-preview have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 33 seconds.', null, '429'), { 'retry-after': '33' }),
      ok(),
    ],
    expect: { answer: 'Done.', attempts: 2, waitedMs: [33_000] },
  },
  {
    id: 'Mistral 429 "Requests rate limit exceeded" with Retry-After: waited as asked',
    source: 'https://github.com/earendil-works/pi/issues/9815',
    play: [err(429, { object: 'error', message: 'Requests rate limit exceeded', type: 'rate_limited', param: null, code: null }, { 'retry-after': '13' }), ok()],
    expect: { answer: 'Done.', attempts: 2, waitedMs: [13_000] },
  },
  {
    id: 'Azure 429 saying "Please retry after 20 seconds" with no header: the words give the wait',
    source: 'https://github.com/openai/openai-node/issues/1108',
    play: [err(429, openAiErr('Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-02-15-preview have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 20 seconds.', null, '429')), ok()],
    expect: { answer: 'Done.', attempts: 2, waitedMs: [20_000] },
  },
  {
    id: 'OpenRouter 402 through Continue "requires more credits": billing',
    source: 'https://github.com/continuedev/continue/issues/10298',
    play: [err(402, { error: { message: 'This request requires more credits, or fewer max_tokens. You requested up to 4096 tokens, but can only afford 4000.', code: 402 } })],
    expect: { fails: /billing reasons/, kind: 'billing', attempts: 1 },
  },
  // ── Attribution: only what the evidence shows ───────────────────────────────────────────────────
  {
    id: 'OpenRouter 404 "No endpoints found that support tool use": the model has no tools there, not a wrong URL',
    source: 'https://github.com/mastra-ai/mastra/issues/2839',
    play: [err(404, { error: { message: 'No endpoints found that support tool use. To learn more about provider routing, visit: https://openrouter.ai/docs/provider-routing', code: 404 } })],
    expect: { fails: /support tool use[\s\S]*(tool calling|tools)/, kind: 'config', neverSays: /not an OpenAI-compatible/, attempts: 1 },
  },
  {
    id: "OpenRouter 404 \"No endpoints found that support the provided 'tool_choice' value\": not a wrong URL",
    source: 'https://github.com/zed-industries/zed/issues/36094',
    play: [err(404, { error: { message: "No endpoints found that support the provided 'tool_choice' value. To learn more about provider routing, visit: https://openrouter.ai/docs/provider-routing", code: 404 } })],
    expect: { fails: /tool_choice/, neverSays: /not an OpenAI-compatible/, attempts: 1 },
  },
  {
    id: 'OpenRouter 404 "No endpoints found for <model>": about the model, not the URL',
    source: 'https://github.com/vyancharuk/nodejs-api-boilerplate/issues/16',
    play: [err(404, { error: { message: 'No endpoints found for nousresearch/hermes-3-llama-3.1-405b:free.', code: 404 } })],
    expect: { fails: /No endpoints found for nousresearch/, neverSays: /not an OpenAI-compatible/, attempts: 1 },
  },
  {
    id: 'Ollama 404 "model not found, try pulling it first": names the model',
    source: 'https://github.com/ollama/ollama/issues/3876',
    play: [err(404, { error: "model 'llama3' not found, try pulling it first" })],
    expect: { fails: /does not know the model/, neverSays: /not an OpenAI-compatible/, attempts: 1 },
  },
  {
    id: 'Ollama /v1 400 "does not support tools": says to pick a model with tools',
    source: 'https://github.com/louisho5/picobot/issues/6',
    play: [err(400, openAiErr('registry.ollama.ai/library/gemma3:4b does not support tools', 'api_error'))],
    expect: { fails: /cannot serve tool calls[\s\S]*ollama show/, kind: 'config', attempts: 1 },
  },
  {
    id: 'Ollama native error string "does not support tools"',
    source: 'https://github.com/ollama/ollama/issues/14795',
    play: [err(400, { error: 'registry.ollama.ai/library/Qwen3.5:0.8b does not support tools' })],
    expect: { fails: /cannot serve tool calls/, kind: 'config', attempts: 1 },
  },
  {
    id: 'Hammer on Ollama: hf.co model "does not support tools"',
    source: 'https://github.com/MadeAgents/Hammer/issues/14',
    play: [err(400, openAiErr('hf.co/eaddario/Hammer2.1-7b-GGUF:Q4_K_M does not support tools', 'api_error'))],
    expect: { fails: /cannot serve tool calls/, kind: 'config', attempts: 1 },
  },
  // ── Requests a server refuses for their shape: learned ─────────────────────────────────────────
  {
    id: 'vLLM serving Mistral: "After the optional system message, conversation roles must alternate" on a turn whose _Stop hook objected',
    source: 'https://github.com/vllm-project/vllm/issues/6862',
    rules: ['alternating-roles'],
    stopObjection: true,
    play: [ok('Checked again.')],
    expect: { answer: 'Checked again.', attempts: 1 },
  },
  {
    id: 'Bedrock behind LiteLLM: "A conversation must alternate between user and assistant roles" on a turn whose _Stop hook objected',
    source: 'https://github.com/cline/cline/issues/431',
    rules: ['bedrock-alternating-roles'],
    stopObjection: true,
    play: [ok('Checked again.')],
    expect: { answer: 'Checked again.', attempts: 1 },
  },
  {
    id: 'vLLM serving Mistral Instruct via autogen: "Conversation roles must alternate" for a system message',
    source: 'https://github.com/microsoft/autogen/issues/1037',
    rules: ['alternating-roles'],
    play: [ok()],
    expect: { answer: 'Done.', attempts: 1 },
  },
  // ── Added in the second corpus round (issue 32) ────────────────────────────────────────────────
  {
    id: 'Gemini (OpenAI-compatible): 413 "Maximum request body size 1048576 exceeded": final, never resent unchanged, words say the request is too large',
    source: 'https://github.com/google-gemini/gemini-cli/issues/13776',
    play: times(MAX_ATTEMPTS, err(413, { error: { message: 'Maximum request body size 1048576 exceeded, actual body size 1056562', code: 413, status: 'Request Entity Too Large' } })),
    expect: { fails: /too large|body size|exceeded/i, attempts: 1 },
  },
  {
    id: 'nginx in front of a server: 413 with an HTML page: final, one request, words not an HTML dump',
    source: 'https://github.com/MiniMax-AI/MiniMax-M2/issues/16',
    play: times(MAX_ATTEMPTS, { type: 'error', status: 413, contentType: 'text/html', text: '<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>openresty</center>\r\n</body>\r\n</html>' }),
    expect: { fails: /too large/i, neverSays: /<html|<center/, attempts: 1 },
  },
];
