/**
 * Runs inside a real VS Code extension host (as its `extensionTestsPath`, started by extensionBench.ts)
 * on a small TypeScript project: the editor server's Problems `_Stop` as a turn meets it, through the
 * same hub call the agent makes. The prompt starts on a clean file (`_UserPromptSubmit`), a write
 * leaves a type error (`_PostToolUse` names the file), VS Code's TypeScript server reports it, and once
 * the report is settled each `_Stop` is timed; every one must object with that error. Reports one
 * `SPROUT_BENCH_PROBLEMS {json}` line.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { SproutApi } from '../../src/extension/extension';

const CALLS = 21;

function meta(session: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { 'sprout/hook': { sessionId: session, ...extra } };
}

/** Resolves on the first diagnostics event for `uri` that `accept` likes (no clock: the event decides). */
function diagnosticsOf(uri: vscode.Uri, accept: (list: readonly vscode.Diagnostic[]) => boolean): Promise<readonly vscode.Diagnostic[]> {
  return new Promise((resolve) => {
    const now = vscode.languages.getDiagnostics(uri);
    if (accept(now)) return resolve(now);
    const sub = vscode.languages.onDidChangeDiagnostics((e) => {
      if (!e.uris.some((u) => u.toString() === uri.toString())) return;
      const list = vscode.languages.getDiagnostics(uri);
      if (!accept(list)) return;
      sub.dispose();
      resolve(list);
    });
  });
}

export async function run(): Promise<void> {
  const ext = vscode.extensions.getExtension<SproutApi>('sprout.sprout-agent');
  if (!ext) throw new Error('sprout.sprout-agent is not installed in the extension host');
  const api = await ext.activate();
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!folder) throw new Error('the bench opens a workspace folder');
  const file = join(folder, 'src', 'count.ts');
  const uri = vscode.Uri.file(file);
  await vscode.window.showTextDocument(uri, { preview: false });
  await diagnosticsOf(uri, (list) => list.length === 0);
  const hub = await api.host.ensureServers();
  const call = (hook: string, extra?: Record<string, unknown>) => hub.callTool('editor', hook, {}, { signal: new AbortController().signal, meta: meta('bench', extra) });
  await call('_UserPromptSubmit');
  writeFileSync(file, "export function count(items: string[]): number {\n  const n: number = 'many';\n  return items.length + n;\n}\n");
  await call('_PostToolUse', { tool: 'workspace__write_file', arguments: { path: 'src/count.ts' }, isError: false });
  await diagnosticsOf(uri, (list) => list.some((d) => d.severity === vscode.DiagnosticSeverity.Error));
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    const result = await call('_Stop');
    times.push(performance.now() - started);
    // The first call may wait for the report to go quiet; every one must name the error.
    if (!/count\.ts:2/.test(result.text)) throw new Error(`_Stop did not object with the new error: ${result.text}`);
  }
  const settled = times.slice(1).sort((a, b) => a - b);
  const result = { firstMs: times[0], medianMs: settled[Math.floor(settled.length / 2)], maxMs: settled.at(-1), calls: settled.length };
  console.log(`SPROUT_BENCH_PROBLEMS ${JSON.stringify(result)}`);
}
