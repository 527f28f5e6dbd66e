/**
 * The chat models VS Code offers through its Language Model API (Copilot's, or any extension's that
 * registers a provider): listed for the model picker and the setup card, and looked up by the
 * `vendor/id` reference that `sprout.model.name` holds for this source. Lookups are cached until VS
 * Code says its set of models changed. Listing asks no consent; only a request does.
 */
import * as vscode from 'vscode';
import { ModelError } from '../../agent/ports';
import { modelRef, parseModelRef, type LmModelInfo } from './lmMapping';

export function describeModel(model: vscode.LanguageModelChat): LmModelInfo {
  return {
    ref: modelRef(model),
    id: model.id,
    vendor: model.vendor,
    family: model.family,
    name: model.name,
    version: model.version,
    maxInputTokens: model.maxInputTokens,
  };
}

/** How messages name a model: its display name and vendor. */
export function modelLabel(model: { name: string; vendor: string }): string {
  return `"${model.name}" (${model.vendor})`;
}

export class LanguageModels implements vscode.Disposable {
  private readonly cache = new Map<string, Promise<vscode.LanguageModelChat>>();
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly subscription: vscode.Disposable;
  /** Fires when VS Code's set of chat models changed (a provider came or went, a sign-in). */
  readonly onDidChange = this.changed.event;

  constructor() {
    this.subscription = vscode.lm.onDidChangeChatModels(() => {
      this.cache.clear();
      this.changed.fire();
    });
  }

  /** Every chat model VS Code offers, sorted by vendor, then name. */
  async list(): Promise<LmModelInfo[]> {
    const models = await vscode.lm.selectChatModels();
    return models.map(describeModel).sort((a, b) => a.vendor.localeCompare(b.vendor) || a.name.localeCompare(b.name));
  }

  /** The model `ref` names; a ModelError('config') saying what to do when there is none. */
  resolve(ref: string): Promise<vscode.LanguageModelChat> {
    let found = this.cache.get(ref);
    if (found === undefined) {
      found = this.lookUp(ref);
      this.cache.set(ref, found);
      // A failed lookup is not cached: the provider may be signed in or installed by the next try.
      found.catch(() => {
        if (this.cache.get(ref) === found) this.cache.delete(ref);
      });
    }
    return found;
  }

  private async lookUp(ref: string): Promise<vscode.LanguageModelChat> {
    const target = parseModelRef(ref);
    if (target === undefined) {
      throw new ModelError(
        'config',
        ref === ''
          ? 'No VS Code language model is selected. Pick one with Sprout: Select Model.'
          : `sprout.model.name "${ref}" does not name a VS Code language model (expected vendor/id, for example copilot/gpt-4o). Pick one with Sprout: Select Model.`,
      );
    }
    const [model] = await vscode.lm.selectChatModels({ vendor: target.vendor, id: target.id });
    if (model === undefined) {
      throw new ModelError(
        'config',
        `VS Code offers no language model ${ref}: the extension that provides it may be disabled, signed out or uninstalled. Pick another one with Sprout: Select Model.`,
      );
    }
    return model;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
    this.cache.clear();
  }
}
