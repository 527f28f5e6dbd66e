/**
 * Commands about the model: set or clear the API key (SecretStorage only) and pick a model from the
 * endpoint's list. The key is never echoed, logged or written to settings.
 */
import * as vscode from 'vscode';
import type { AgentHost } from '../agentHost';
import type { ApiKeyStore } from '../settings/apiKeyStore';
import { writeSetting } from '../settings/configReader';
import { errorMessage } from '../../agent/errorMessage';

export async function setApiKey(keys: ApiKeyStore, host: AgentHost, value?: string): Promise<boolean> {
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
  host.invalidateModel();
  void vscode.window.showInformationMessage('Sprout: API key saved in Secret Storage.');
  return true;
}

export async function clearApiKey(keys: ApiKeyStore, host: AgentHost): Promise<void> {
  await keys.clear();
  host.invalidateModel();
  void vscode.window.showInformationMessage('Sprout: API key removed.');
}

function modelIds(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list
    .map((m: unknown) => (typeof m === 'string' ? m : typeof m === 'object' && m !== null && 'id' in m ? String((m as { id: unknown }).id) : ''))
    .filter((id) => id !== '')
    .sort();
}

export async function selectModel(host: AgentHost, pick?: string): Promise<string | undefined> {
  let chosen = pick;
  if (chosen === undefined) {
    let ids: string[] = [];
    try {
      const client = (await host.currentModel()) as unknown as { listModels(signal?: AbortSignal): Promise<unknown> };
      ids = modelIds(await client.listModels());
    } catch (error) {
      void vscode.window.showWarningMessage(`Sprout: could not list the endpoint's models (${errorMessage(error)}). Type a name instead.`);
    }
    chosen = ids.length > 0
      ? (await vscode.window.showQuickPick(ids, { title: 'Sprout: Select Model', placeHolder: 'Models offered by the endpoint' }))
      : await vscode.window.showInputBox({ title: 'Sprout: Select Model', prompt: 'Model name, e.g. gpt-4o-mini' });
  }
  if (chosen === undefined || chosen.trim() === '') return undefined;
  await writeSetting('sprout.model.name', chosen.trim(), vscode.ConfigurationTarget.Global);
  return chosen.trim();
}
