/**
 * Servers serving a model without vision, each refusing a request that carries an image the way it
 * really does (status, body shape and words; sources in docs/model-servers.md): llama.cpp's
 * llama-server started without `--mmproj` (500), vLLM with a text-only model (400) or with
 * `--limit-mm-per-prompt image=0` (400), Ollama with a text-only model (500), LM Studio (400, a bare
 * string), OpenRouter when no provider of the model takes images (404), OpenAI with a model without
 * vision, and LiteLLM's proxy relaying it (400).
 */
import type { Rejection } from './validateChatRequest';

export const VISION_RULES = [
  'llamacpp-no-vision',
  'vllm-no-vision',
  'vllm-image-limit-0',
  'ollama-no-vision',
  'lmstudio-no-vision',
  'openrouter-no-vision',
  'openai-no-vision',
  'litellm-no-vision',
] as const;
export type VisionRule = (typeof VISION_RULES)[number];

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The index of the first message with an image part and that part's index, if any. */
function firstImage(body: Json): [number, number] | undefined {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  for (const [i, message] of messages.entries()) {
    const content = isObject(message) && Array.isArray(message.content) ? message.content : [];
    const j = content.findIndex((part: unknown) => isObject(part) && part.type === 'image_url');
    if (j >= 0) return [i, j];
  }
  return undefined;
}

function refusal(status: number, body: unknown, message: string): Rejection {
  return { status, body, message };
}

const OPENAI_NO_VISION = 'Invalid content type. image_url is only supported by certain models.';

function refuse(rule: VisionRule, at: [number, number]): Rejection {
  switch (rule) {
    case 'llamacpp-no-vision': {
      const message = 'image input is not supported - hint: if this is unexpected, you may need to provide the mmproj';
      return refusal(500, { error: { code: 500, message, type: 'server_error' } }, message);
    }
    case 'vllm-no-vision': {
      const message = 'The model is not multimodal. Please remove image inputs.';
      return refusal(400, { object: 'error', message, type: 'BadRequestError', param: null, code: 400 }, message);
    }
    case 'vllm-image-limit-0': {
      const message = 'At most 0 image(s) may be provided in one prompt.';
      return refusal(400, { error: { message, type: 'BadRequestError', param: 'image', code: 400 } }, message);
    }
    case 'ollama-no-vision': {
      const message = 'Failed to create new sequence: failed to process inputs: this model is missing data required for image input';
      return refusal(500, { error: { message, type: 'api_error', param: null, code: null } }, message);
    }
    case 'lmstudio-no-vision': {
      const message = 'Model does not support images. Please use a model that does.';
      return refusal(400, { error: message }, message);
    }
    case 'openrouter-no-vision': {
      const message = 'No endpoints found that support image input';
      return refusal(404, { error: { message, code: 404 } }, message);
    }
    case 'openai-no-vision':
      return refusal(400, { error: { message: OPENAI_NO_VISION, type: 'invalid_request_error', param: `messages.[${at[0]}].content.[${at[1]}].type`, code: null } }, OPENAI_NO_VISION);
    case 'litellm-no-vision': {
      const message = `litellm.BadRequestError: OpenAIException - ${OPENAI_NO_VISION}. Received Model Group=text-model\nAvailable Model Group Fallbacks=None`;
      return refusal(400, { error: { message, type: null, param: null, code: '400' } }, message);
    }
  }
}

/** The refusal of `rule`'s server for a request with an image; undefined for one without. */
export function visionRejection(rule: VisionRule, body: unknown): Rejection | undefined {
  if (!isObject(body)) return undefined;
  const at = firstImage(body);
  return at === undefined ? undefined : refuse(rule, at);
}
