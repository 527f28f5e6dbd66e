/**
 * Commands about the model: set or clear the API key (SecretStorage only) and pick a model, from VS
 * Code's language models or the endpoint's list, which also picks the source. The key is never
 * echoed, logged or written to settings.
 */
import * as vscode from 'vscode';
import type { ApiKeyStore } from '../settings/apiKeyStore';
import { writeSetting } from '../settings/configReader';
import { errorMessage } from '../../agent/errorMessage';
import type { ExtensionSettings } from '../settings/settingsMapping';
import type { LmModelInfo } from '../modelSources/lmMapping';
import type { ModelSources } from '../modelSources/modelRouter';
import { modelPickerEntries, type EndpointListing, type ModelChoice } from '../modelSources/modelChoices';
import type { ModelSource } from '../modelSources/modelSource';

export async function setApiKey(keys: ApiKeyStore, value?: string): Promise<boolean> {
  const key =
    value ??
    (await vscode.window.showInputBox({
      title: 'Sprout: Set API Key',
      prompt: 'The key is stored in VS Code Secret Storage only.',
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() === '' ? 'Enter a key, or press Escape.' : undefined),
    }));
  if (key === undefined || key.trim() === '') return false;
  await keys.set(key.trim());
  void vscode.window.showInformationMessage('Sprout: API key saved in Secret Storage.');
  return true;
}

/** A model endpoint typed into an input box (not the Settings editor), saved to the user's settings, which the message says. */
export async function setBaseUrl(models: ModelSources, settings: () => ExtensionSettings, value?: string): Promise<string | undefined> {
  const url =
    value ??
    (await vscode.window.showInputBox({
      title: 'Sprout: Model Endpoint',
      prompt: 'Base URL of an OpenAI-compatible server: Ollama http://127.0.0.1:11434/v1, LM Studio http://127.0.0.1:1234/v1, vLLM, llama.cpp, OpenRouter…',
      value: settings().baseUrl,
      ignoreFocusOut: true,
      validateInput: (v) => endpointProblem(v.trim()),
    }));
  if (url === undefined || endpointProblem(url.trim()) !== undefined) return undefined;
  await writeSetting('sprout.model.baseUrl', url.trim(), vscode.ConfigurationTarget.Global);
  void vscode.window.showInformationMessage(`Sprout: saved the endpoint ${url.trim()} to your user settings (sprout.model.baseUrl).`);
  if (settings().agent.model === '') await selectModel(models, { source: 'openai' });
  return url.trim();
}

function endpointProblem(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? undefined : 'The URL must start with http:// or https://.';
  } catch {
    return 'Enter a URL such as http://127.0.0.1:11434/v1.';
  }
}

export async function clearApiKey(keys: ApiKeyStore): Promise<void> {
  await keys.clear();
  void vscode.window.showInformationMessage('Sprout: API key removed.');
}

/** An endpoint model name (as before), or a source with the model to use, or a source alone to pick within it. */
export type SelectModelArg = string | { source: 'vscode'; ref?: string } | { source: 'openai'; name?: string };

export interface SelectedModel {
  source: ModelSource;
  name: string;
}

async function endpointListing(sources: ModelSources): Promise<EndpointListing> {
  const baseUrl = sources.endpointUrl();
  try {
    return { baseUrl, models: await (await sources.endpoint()).listModels() };
  } catch (error) {
    return { baseUrl, error: errorMessage(error) };
  }
}

async function vscodeListing(sources: ModelSources): Promise<LmModelInfo[]> {
  try {
    return await sources.languageModels.list();
  } catch (error) {
    void vscode.window.showWarningMessage(`Sprout: could not list VS Code's language models (${errorMessage(error)}).`);
    return [];
  }
}

async function pickModel(sources: ModelSources, only: ModelSource | undefined): Promise<ModelChoice | undefined> {
  const quickPick = vscode.window.createQuickPick<vscode.QuickPickItem & { choice?: ModelChoice }>();
  quickPick.title = 'Sprout: Select Model';
  quickPick.placeholder = only === 'vscode' ? 'Models VS Code offers' : 'Models VS Code offers, and the endpoint\'s';
  quickPick.matchOnDescription = true;
  quickPick.busy = true;
  // Listening before the lists arrive: the user may press Escape while they load.
  const answered = new Promise<ModelChoice | undefined>((resolve) => {
    quickPick.onDidAccept(() => resolve(quickPick.selectedItems[0]?.choice));
    quickPick.onDidHide(() => resolve(undefined));
  });
  quickPick.show();
  try {
    const [vscodeModels, endpoint] = await Promise.all([only === 'openai' ? [] : vscodeListing(sources), only === 'vscode' ? undefined : endpointListing(sources)]);
    const entries = modelPickerEntries({ vscodeModels, ...(endpoint ? { endpoint } : {}), current: sources.current() });
    quickPick.items = entries.map((e) => (e.separator ? { label: e.label, kind: vscode.QuickPickItemKind.Separator } : { label: e.label, description: e.description, detail: e.detail, choice: e.choice }));
    if (entries.length === 0) quickPick.placeholder = 'VS Code offers no language model: install or sign in to a model provider (GitHub Copilot, say).';
    quickPick.busy = false;
    return await answered;
  } finally {
    quickPick.dispose();
  }
}

function directChoice(arg: SelectModelArg | undefined): ModelChoice | undefined {
  if (typeof arg === 'string') return { source: 'openai', name: arg };
  if (arg?.source === 'vscode' && arg.ref) return { source: 'vscode', ref: arg.ref };
  if (arg?.source === 'openai' && arg.name) return { source: 'openai', name: arg.name };
  return undefined;
}

/** Shows the picker (or takes `arg`), then writes the source and the model together, in the user's settings. */
export async function selectModel(sources: ModelSources, arg?: SelectModelArg): Promise<SelectedModel | undefined> {
  let choice = directChoice(arg) ?? (await pickModel(sources, typeof arg === 'object' ? arg.source : undefined));
  if (choice && 'typeName' in choice) {
    const name = await vscode.window.showInputBox({ title: 'Sprout: Select Model', prompt: `Model name for ${sources.endpointUrl()}, e.g. gpt-4o-mini` });
    choice = name?.trim() ? { source: 'openai', name: name.trim() } : undefined;
  }
  if (choice === undefined) return undefined;
  const selected: SelectedModel = 'ref' in choice ? { source: 'vscode', name: choice.ref } : { source: 'openai', name: choice.name.trim() };
  if (selected.name === '') return undefined;
  await writeSetting('sprout.model.provider', selected.source, vscode.ConfigurationTarget.Global);
  const where = await writeSetting('sprout.model.name', selected.name, vscode.ConfigurationTarget.Global);
  void vscode.window.showInformationMessage(`Sprout: using the model ${selected.name} (saved to ${where}).`);
  return selected;
}
