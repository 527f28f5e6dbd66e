/**
 * The chat's context bar in the editor: what the user may attach (the current file, its selection, any
 * workspace file) and, when a prompt is sent, the attached files' text for the model. `#file:path` in
 * the prompt attaches that file too. An open editor's text counts (unsaved edits included); each
 * attachment is capped, and a path outside the workspace folder is refused.
 */
import * as vscode from 'vscode';
import type { PromptAttachment } from '../../agent/promptAttachments';
import type { AttachmentRef } from '../../shared/protocol';
import type { ResourceHost } from '../../agent/resources';

/** How the Attach menu asks (VS Code's quick pick; a test may answer in its place). */
export interface QuickPicks {
  show<T extends vscode.QuickPickItem>(items: T[], options: vscode.QuickPickOptions): Thenable<T | undefined>;
}

export const windowQuickPicks: QuickPicks = { show: (items, options) => vscode.window.showQuickPick(items, options) };

/** A resource picked from the Attach menu: the `#resource:` mention that attaches it. */
export interface PickedResource {
  mention: string;
}

export const ATTACHMENT_MAX_CHARS = 100_000;
const MENTION = /(?:^|\s)#file:(\S+)/g;

function relative(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, false);
}

/** The attachment for the active editor's file, or for its selection. */
function editorRef(selection: boolean): AttachmentRef | undefined {
  const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
  if (!editor || editor.document.uri.scheme !== 'file') return undefined;
  const path = relative(editor.document.uri);
  if (!selection) return { path, label: path };
  if (editor.selection.isEmpty) return undefined;
  const startLine = editor.selection.start.line + 1;
  const endLine = editor.selection.end.line + 1;
  return { path, label: `${path}:${startLine}-${endLine}`, startLine, endLine };
}

/**
 * A quick pick: the current file, its selection, another file of the workspace, an image (`image`:
 * composerImages.ts picks it), or an MCP server's resource (its `#resource:` mention; the servers start
 * for the list).
 */
export async function pickAttachment(picks: QuickPicks, resources: () => Promise<ResourceHost | undefined>): Promise<AttachmentRef | 'image' | PickedResource | undefined> {
  const file = editorRef(false);
  const selection = editorRef(true);
  type Item = vscode.QuickPickItem & { ref?: AttachmentRef; browse?: true; image?: true; resource?: true };
  const items: Item[] = [];
  if (file) items.push({ label: '$(file) Current file', description: file.label, ref: file });
  if (selection) items.push({ label: '$(selection) Selection', description: selection.label, ref: selection });
  items.push({ label: '$(search) Other file…', browse: true });
  items.push({ label: '$(file-media) Image…', description: 'a screenshot or another image (PNG, JPEG, GIF, WebP)', image: true });
  items.push({ label: '$(database) Resource…', description: 'a document an MCP server offers', resource: true });
  const choice = await picks.show(items, { title: 'Sprout: Attach to the prompt', placeHolder: 'The attached text goes to the model with your message' });
  if (choice?.image) return 'image';
  if (choice?.resource) return pickResource(picks, await resources());
  if (!choice?.browse) return choice?.ref;
  const uris = await vscode.workspace.findFiles('**/*', '**/{node_modules,.git}/**', 5000);
  const picked = await vscode.window.showQuickPick(uris.map((u) => relative(u)).sort(), { title: 'Sprout: Attach a file', matchOnDescription: true });
  return picked === undefined ? undefined : { path: picked, label: picked };
}

async function readRef(ref: AttachmentRef): Promise<PromptAttachment> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const uri = folder ? vscode.Uri.joinPath(folder, ref.path) : vscode.Uri.file(ref.path);
  if (folder && !uri.path.startsWith(`${folder.path}/`)) return { label: ref.label, content: '(not attached: outside the workspace folder)' };
  try {
    const doc = await vscode.workspace.openTextDocument(uri);
    const range = ref.startLine === undefined ? undefined : new vscode.Range(ref.startLine - 1, 0, (ref.endLine ?? ref.startLine) - 1, Number.MAX_SAFE_INTEGER);
    const text = doc.getText(range);
    return { label: ref.label, content: text.length > ATTACHMENT_MAX_CHARS ? `${text.slice(0, ATTACHMENT_MAX_CHARS)}\n[… cut at ${ATTACHMENT_MAX_CHARS} characters]` : text };
  } catch (error) {
    return { label: ref.label, content: `(could not be read: ${error instanceof Error ? error.message : String(error)})` };
  }
}

/** The attached files plus every `#file:` mention in the prompt, each once, read for the model. */
export async function readAttachments(refs: readonly AttachmentRef[], prompt: string): Promise<PromptAttachment[]> {
  const all = [...refs];
  for (const match of prompt.matchAll(MENTION)) {
    const path = match[1];
    if (path && !all.some((r) => r.path === path && r.startLine === undefined)) all.push({ path, label: path });
  }
  return Promise.all(all.map(readRef));
}

/** The servers' resources in a quick pick; the one picked as its `#resource:` mention. None listed: said. */
async function pickResource(picks: QuickPicks, host: ResourceHost | undefined): Promise<PickedResource | undefined> {
  const listing = host === undefined || host.servers().length === 0 ? undefined : await host.list(AbortSignal.timeout(60_000));
  const failed = listing?.errors.map((e) => `${e.server}: ${e.message}`).join('; ') ?? '';
  if (listing === undefined || listing.resources.length === 0) {
    void vscode.window.showInformationMessage(`Sprout: no MCP server offers resources${failed === '' ? '' : ` (${failed})`}.`);
    return undefined;
  }
  const items = listing.resources.slice(0, 1000).map((r) => ({ label: r.title ?? r.name, description: `${r.server} · ${r.uri}`, detail: r.description, mention: `#resource:${r.server}:${r.uri}` }));
  const choice = await picks.show(items, { title: 'Sprout: Attach a resource', placeHolder: 'Attached as #resource:server:uri; it follows the server while the chat goes on', matchOnDescription: true, matchOnDetail: true });
  return choice === undefined ? undefined : { mention: choice.mention };
}
