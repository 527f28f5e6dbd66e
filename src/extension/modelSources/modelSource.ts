/**
 * Which model source serves the chats, and what the setup card offers before one can. Sprout has two:
 * an OpenAI-compatible endpoint (`openai`) and the chat models VS Code offers through its Language
 * Model API (`vscode`). A VS Code setting has one fixed default, so "it depends" is the value `auto`,
 * the default of `sprout.model.provider`, resolved here at run time: an endpoint once the user has
 * configured one (a base URL set in settings, or an API key stored), else VS Code's models when there
 * is one, else the endpoint (whose setup asks for a key or a local server). Choosing in the model
 * picker writes an explicit value, so a model choice never flips by itself. Pure, so it is tested directly.
 */
import type { ModelInUse, SetupInfo } from '../../shared/protocol';
import { parseModelRef, type LmModelInfo } from './lmMapping';

export type ModelProvider = 'auto' | 'openai' | 'vscode';
export type ModelSource = 'openai' | 'vscode';
export const MODEL_PROVIDERS: readonly ModelProvider[] = ['auto', 'openai', 'vscode'];

export interface SourceFacts {
  provider: ModelProvider;
  /** `sprout.model.baseUrl` has a value in a scope that applies (workspace scopes only when trusted). */
  baseUrlConfigured: boolean;
  hasApiKey: boolean;
  /** VS Code's chat models as last listed; undefined until the first listing. */
  vscodeModels: readonly LmModelInfo[] | undefined;
}

export function resolveModelSource(facts: SourceFacts): ModelSource {
  if (facts.provider !== 'auto') return facts.provider;
  if (facts.baseUrlConfigured || facts.hasApiKey) return 'openai';
  return (facts.vscodeModels?.length ?? 0) > 0 ? 'vscode' : 'openai';
}

export interface SetupFacts extends SourceFacts {
  /** `sprout.model.name`: a model id for the endpoint, `vendor/id` for VS Code's models. */
  model: string;
  baseUrl: string;
}

/**
 * The model the next prompt goes to, as the composer's button shows it: a VS Code model by its own
 * name with its vendor and family, an endpoint's model by its id with the endpoint's host. Null while
 * no model is chosen (the setup card asks for one).
 */
export function modelInUse(input: { source: ModelSource; name: string; baseUrl: string; vscodeModels: readonly LmModelInfo[] | undefined }): ModelInUse | null {
  const { source, name } = input;
  if (name === '') return null;
  if (source === 'openai') return { label: name, source, detail: `${name} at ${endpointHost(input.baseUrl)}` };
  const model = input.vscodeModels?.find((m) => m.ref === name);
  if (!model) return { label: name, source, detail: `${name}, a model in VS Code (not offered right now)` };
  return { label: model.name || model.id, source, detail: `${model.name || model.id} (${model.vendor}, ${model.family}), a model in VS Code` };
}

/** The endpoint as a user recognises it: `api.openai.com`, `localhost:11434`; the text itself when it is no URL. */
function endpointHost(baseUrl: string): string {
  try {
    return new URL(baseUrl).host || baseUrl;
  } catch {
    return baseUrl;
  }
}

function isOpenAiHost(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname.endsWith('openai.com');
  } catch {
    return false;
  }
}

/** What the chat must ask before a prompt can run, or null when the chosen source is ready to try. */
export function setupAdvice(facts: SetupFacts): SetupInfo | null {
  const vscodeModels = (facts.vscodeModels?.length ?? 0) > 0;
  if (resolveModelSource(facts) === 'vscode') {
    // A well-formed reference is tried; a model that went away fails with a message naming the picker.
    if (parseModelRef(facts.model) !== undefined) return null;
    return {
      reason: 'Pick the model Sprout should use: one already in VS Code, or an OpenAI-compatible endpoint.',
      needsKey: facts.provider === 'auto',
      needsModel: true,
      vscodeModels,
    };
  }
  const needsModel = facts.model === '';
  const needsKey = !facts.hasApiKey && isOpenAiHost(facts.baseUrl);
  if (!needsModel && !needsKey) return null;
  let reason = 'Pick the model Sprout should use.';
  if (needsKey) {
    reason = vscodeModels
      ? 'Sprout needs a model: one already in VS Code, an API key for api.openai.com, or the URL of a local OpenAI-compatible server.'
      : 'Sprout needs an API key for api.openai.com, or the URL of a local OpenAI-compatible server.';
  }
  return { reason, needsKey, needsModel, vscodeModels };
}
