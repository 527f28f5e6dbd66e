/**
 * The API key lives only in VS Code's SecretStorage: never in settings, logs or a child's environment.
 * The value is cached in memory for the logger's redaction and for building the model client.
 */
import type * as vscode from 'vscode';

const KEY = 'sprout.apiKey';

export class ApiKeyStore {
  private cached: string | undefined;

  constructor(private readonly secrets: vscode.SecretStorage) {}

  async load(): Promise<string | undefined> {
    this.cached = (await this.secrets.get(KEY)) || undefined;
    return this.cached;
  }

  get current(): string | undefined {
    return this.cached;
  }

  async set(value: string): Promise<void> {
    await this.secrets.store(KEY, value);
    this.cached = value;
  }

  async clear(): Promise<void> {
    await this.secrets.delete(KEY);
    this.cached = undefined;
  }

  onDidChange(listener: () => void): vscode.Disposable {
    return this.secrets.onDidChange((e) => {
      if (e.key === KEY) void this.load().then(listener);
    });
  }
}
