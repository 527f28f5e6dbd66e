/**
 * Server configurations for the MCP servers that ship inside the bundle (dist/servers/<name>.js).
 * They run under the host's own executable with ELECTRON_RUN_AS_NODE=1, so the same config works from
 * the CLI (plain node) and from VS Code's Electron extension host.
 */
import { join } from 'node:path';
import type { McpServerConfig } from '../mcp/config';

export const BUNDLED_SERVER_NAMES = ['workspace', 'todo', 'tests'] as const;
export type BundledServerName = (typeof BUNDLED_SERVER_NAMES)[number];

/** The servers started when the user configured none. */
export const DEFAULT_BUNDLED_SERVERS: readonly BundledServerName[] = ['workspace', 'todo'];

export function isBundledServerName(name: string): name is BundledServerName {
  return (BUNDLED_SERVER_NAMES as readonly string[]).includes(name);
}

export interface BundledServerOptions {
  /** The folder holding cli.js / extension.js and servers/. */
  distDir: string;
  workspaceFolder: string;
  /** Where servers keep state (a todo list, test results); one subfolder per server. */
  stateDir: string;
  /** The executable to run; defaults to this process's. */
  execPath?: string;
  /** Protected-path patterns added to the defaults (the workspace server refuses unapproved writes there). */
  protectedPaths?: readonly string[];
  /** The user allowed every protected write (the CLI's --allow-protected-writes). */
  allowProtectedWrites?: boolean;
}

/** The options only the workspace server takes. */
function workspaceArgs(options: BundledServerOptions): string[] {
  const extra = options.protectedPaths ?? [];
  return [...(extra.length > 0 ? ['--protected-paths', JSON.stringify(extra)] : []), ...(options.allowProtectedWrites ? ['--allow-protected-writes'] : [])];
}

export function bundledServerConfig(name: BundledServerName, options: BundledServerOptions): McpServerConfig {
  return {
    name,
    transport: {
      type: 'stdio',
      command: options.execPath ?? process.execPath,
      args: [
        join(options.distDir, 'servers', `${name}.js`),
        ...['--root', options.workspaceFolder, '--state-dir', join(options.stateDir, name)],
        ...(name === 'workspace' ? workspaceArgs(options) : []),
      ],
      env: { ELECTRON_RUN_AS_NODE: '1' },
      cwd: options.workspaceFolder,
    },
  };
}

export function bundledServerConfigs(names: readonly BundledServerName[], options: BundledServerOptions): McpServerConfig[] {
  return names.map((name) => bundledServerConfig(name, options));
}
