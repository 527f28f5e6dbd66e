/**
 * What MCP servers need that is secret, kept in VS Code's SecretStorage and nowhere else: OAuth tokens
 * and client registrations of HTTP servers (one entry per server name and URL), and the values typed
 * for `${input:id}` placeholders of an mcp.json (one entry per file and input id, asked once). The
 * sign-in host sends the user to the sign-in page through the browser (vscode.env.openExternal).
 */
import * as vscode from 'vscode';
import { onAbort } from '../../agent/cancellation';
import type { McpInputSpec } from '../../mcp/configInputs';
import type { OAuthHost, OAuthRecord, OAuthStore } from '../../mcp/oauthClient';
import { quotedName } from '../../agent/nameText';

const OAUTH_PREFIX = 'sprout.mcp.oauth:';
const INPUT_PREFIX = 'sprout.mcp.input:';

export class SecretOAuthStore implements OAuthStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  async load(key: string): Promise<OAuthRecord | undefined> {
    const raw = await this.secrets.get(OAUTH_PREFIX + key);
    if (raw === undefined) return undefined;
    try {
      return JSON.parse(raw) as OAuthRecord;
    } catch {
      return undefined;
    }
  }

  async save(key: string, record: OAuthRecord): Promise<void> {
    await this.secrets.store(OAUTH_PREFIX + key, JSON.stringify(record));
  }

  async clear(key: string): Promise<void> {
    await this.secrets.delete(OAUTH_PREFIX + key);
  }
}

/** How a sign-in page is shown; replaceable so extension-host tests can play the browser. */
export type SignInOpener = (server: string, url: URL) => Promise<void>;

/** Asks first (a browser tab should not open unasked), then opens the page in the user's browser. */
export const openSignInInBrowser: SignInOpener = async (server, url) => {
  const choice = await vscode.window.showInformationMessage(`The MCP server ${quotedName(server)} asks you to sign in.`, 'Sign In in Browser');
  if (choice !== undefined) await vscode.env.openExternal(vscode.Uri.parse(url.href));
};

/**
 * In a remote window (Remote-SSH, dev containers, Codespaces, code-server) the extension host's
 * 127.0.0.1 is not the browser's: asExternalUri forwards the listener's port to the user's machine or
 * names the address the server proxies it at. VS Code's own MCP sign-in keeps its loopback listener
 * to local windows for the same reason. A local window keeps the loopback, which is what the CLI uses.
 */
async function reachableRedirect(loopback: string): Promise<string> {
  if (vscode.env.remoteName === undefined) return loopback;
  try {
    return (await vscode.env.asExternalUri(vscode.Uri.parse(loopback))).toString(true);
  } catch {
    // An editor that cannot map it leaves the loopback: signing in then works where the browser shares it.
    return loopback;
  }
}

export function vscodeOAuthHost(secrets: vscode.SecretStorage, open: () => SignInOpener): OAuthHost {
  return { store: new SecretOAuthStore(secrets), clientName: 'Sprout Agent for VS Code', openSignIn: (server, url) => open()(server, url), reachableRedirect };
}

/**
 * How an input is asked for; replaceable for tests. Undefined means the user dismissed it, or
 * `signal` (the asking build's: superseded, or the window closing) aborted and the box was closed.
 */
export type InputPrompt = (spec: McpInputSpec, source: string, signal?: AbortSignal) => Promise<string | undefined>;

export const promptForInput: InputPrompt = async (spec, source, signal) => {
  // showInputBox closes its box when the token is cancelled: nobody is asked a question whose answer is no longer used.
  const cancel = new vscode.CancellationTokenSource();
  const stop = signal === undefined ? () => undefined : onAbort(signal, () => cancel.cancel());
  try {
    return await vscode.window.showInputBox(
      {
        title: `MCP input "${spec.id}" (${vscode.workspace.asRelativePath(source)})`,
        prompt: spec.description,
        password: spec.password,
        value: spec.default,
        ignoreFocusOut: true,
      },
      cancel.token,
    );
  } finally {
    stop();
    cancel.dispose();
  }
};

/**
 * The values of a file's inputs: from SecretStorage, else asked once and kept. A dismissed prompt
 * leaves the input without a value, so its server reports the missing value instead of starting.
 * Once `signal` aborts nothing more is asked or kept: the build that wanted the values is gone.
 */
export async function resolveInputs(secrets: vscode.SecretStorage, source: string, specs: readonly McpInputSpec[], prompt: InputPrompt, signal?: AbortSignal): Promise<Map<string, string>> {
  const values = new Map<string, string>();
  for (const spec of specs) {
    const key = `${INPUT_PREFIX}${source}#${spec.id}`;
    let value = await secrets.get(key);
    if (value === undefined) {
      signal?.throwIfAborted();
      value = await prompt(spec, source, signal);
      signal?.throwIfAborted();
      if (value !== undefined) await secrets.store(key, value);
    }
    if (value !== undefined) values.set(spec.id, value);
  }
  return values;
}
