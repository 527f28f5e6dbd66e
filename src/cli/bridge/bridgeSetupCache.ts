/**
 * The hook host's memory of bridgeSetup: an agent sends the same command line, folder and environment
 * with every event, and reading, parsing and checking the MCP configuration again each time was most
 * of what the host did per event beyond the hook call itself. A setup is reused only while the files it
 * was read from are byte for byte the same, lead to the same real files, and the workspace folder too
 * (so an edit, a new .vscode/mcp.json or a moved link takes effect on the next event, as without the
 * host). A configuration that names an envFile (read while it is resolved) is never kept, nor is a
 * setup that failed: each event reads those afresh, as before.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { Env } from '../cliSettings';
import type { ServerOptions } from './bridgeArgs';
import { ensurePrivateDir } from '../../platform/privateState';
import { bridgeSetup, type BridgeSetup } from './bridgeServers';

/** Enough for every folder and command line one user's agents use at once; the oldest goes first. */
const MAX_ENTRIES = 32;

/** One realpath(3) call (the JS realpathSync looks at every folder on the way); '' when there is none. */
function realPath(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return '';
  }
}

function exists(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/** What `files` are now (their real paths and bytes), or undefined when one may send the setup to a file not listed here. */
function fingerprint(files: readonly string[], workspaceFolder: string): string | undefined {
  const parts: (string | null)[] = [realPath(workspaceFolder)];
  for (const file of files) {
    // Most workspaces have no .vscode/mcp.json: said without an exception, and as existsSync says it.
    if (!exists(file)) {
      parts.push(file, null);
      continue;
    }
    let text: string | null;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      text = null;
    }
    // An env file is read while the configuration is resolved; `\u` may spell its key in JSON.
    if (text !== null && (text.includes('envFile') || text.includes('\\u'))) return undefined;
    parts.push(file, realPath(file), text);
  }
  return JSON.stringify(parts);
}

export class BridgeSetupCache {
  private readonly entries = new Map<string, { fingerprint: string; setup: BridgeSetup }>();

  /** bridgeSetup's answer for these inputs, from memory when the files it read are unchanged. */
  setup(options: ServerOptions, workspaceFolder: string, env: Env, distDir: string, baseDir: string): BridgeSetup {
    const mcpConfig = options.mcpConfig === undefined || isAbsolute(options.mcpConfig) ? options.mcpConfig : resolve(baseDir, options.mcpConfig);
    const files = [...(mcpConfig === undefined ? [] : [mcpConfig]), join(workspaceFolder, '.vscode', 'mcp.json')];
    const key = JSON.stringify([options, workspaceFolder, env, distDir, baseDir]);
    const now = fingerprint(files, workspaceFolder);
    const kept = this.entries.get(key);
    if (kept !== undefined && now !== undefined && kept.fingerprint === now) {
      // The bundled servers' folder is made and checked for every event, as bridgeSetup does.
      if (kept.setup.stateDir !== '') ensurePrivateDir(kept.setup.stateDir);
      return kept.setup;
    }
    this.entries.delete(key);
    const setup = bridgeSetup(options, workspaceFolder, env, distDir, baseDir);
    if (now !== undefined) {
      this.entries.set(key, { fingerprint: now, setup });
      if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    }
    return setup;
  }
}
