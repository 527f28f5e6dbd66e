/**
 * Which MCP servers a CLI run starts, and the checks that make a misconfiguration an error instead of
 * a silently missing hook. The bundled servers (`workspace`, `todo` by default) always start unless
 * --builtin-servers / SPROUT_AGENT_BUILTIN_SERVERS says otherwise; the user's servers add to them, and
 * a name both use is an error naming both. A repository is attacker-written: `<cwd>/.vscode/mcp.json`
 * starts only when the user opts in (--trust-workspace / SPROUT_AGENT_TRUST_WORKSPACE=1, or naming the
 * file with --mcp-config); otherwise its servers are only listed, with how to enable them. Even then a
 * workspace file's servers get no secret variable unless --allow-secret-env names it (secretVariables.ts).
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError, parseBoolean } from '../agent/settings';
import type { HookAllowlist } from '../agent/settings';
import { inputEnvName, loadMcpConfigFile, readMcpConfigJson, type McpServerConfig, type MissingInputError } from '../mcp/config';
import type { SecretPolicy } from '../mcp/secretVariables';
import { isInside } from '../servers/common/safePath';
import {
  BUNDLED_SERVER_NAMES,
  DEFAULT_BUNDLED_SERVERS,
  isBundledServerName,
  type BundledServerName,
} from '../runtime/bundledServers';
import type { Env } from './cliSettings';
import { UsageError } from './exitCodes';
import { quotedName, visibleName, visibleNames } from '../agent/nameText';

export interface ServerSelection {
  /** From --mcp-config, then the trusted workspace's file, in file order; the bundled servers go after them. */
  configured: McpServerConfig[];
  /** The MCP config files in use. */
  configFiles: string[];
  bundled: BundledServerName[];
  /** `<cwd>/.vscode/mcp.json` exists but was not opted into: nothing in it starts. */
  untrusted: { file: string; names: string[] } | undefined;
  /** Configured servers that stay off, and why (an `${input:id}` without a value); the others start. */
  off: { name: string; why: string }[];
  /** Said once on stderr: which config shape was read, keys that are ignored, disabled servers, and last the workspace servers left unstarted. */
  notices: string[];
}

export interface ServerSelectionInput {
  workspaceFolder: string;
  mcpConfig: string | undefined;
  builtinServers: string | undefined;
  /** --trust-workspace was given. */
  trustWorkspace: boolean;
  /** --allow-secret-env: secret variables the workspace's own servers may receive. */
  allowSecretEnv?: readonly string[];
  env: Env;
}

const TRUST_HOW = 'pass --trust-workspace (or set SPROUT_AGENT_TRUST_WORKSPACE=1)';

export function parseBuiltinServers(value: string, source: string): BundledServerName[] {
  const names = value
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n.length > 0);
  const unknown = names.filter((n) => !isBundledServerName(n));
  if (unknown.length > 0) {
    throw new ConfigError(
      source,
      `${source}: unknown bundled server ${unknown.map((n) => `"${n}"`).join(', ')}. ` +
        `Use a comma list of ${BUNDLED_SERVER_NAMES.join(', ')}, or an empty value for none.`,
    );
  }
  return [...new Set(names)].filter(isBundledServerName);
}

/** --trust-workspace, else SPROUT_AGENT_TRUST_WORKSPACE (a bad value is an error naming it). */
export function trustsWorkspace(flag: boolean, env: Env): boolean {
  if (flag) return true;
  const value = env.SPROUT_AGENT_TRUST_WORKSPACE;
  return value === undefined || value.trim() === '' ? false : parseBoolean(value, 'SPROUT_AGENT_TRUST_WORKSPACE');
}

/**
 * The server names a workspace file declares, read as plain data (nothing is expanded or started), so
 * the user can be told what they would be opting into. Unreadable or malformed: no names.
 */
function declaredServerNames(file: string): string[] {
  try {
    const json = readMcpConfigJson(file) as Record<string, unknown>;
    return ['servers', 'mcpServers'].flatMap((key) => {
      const servers = json[key];
      return servers !== null && typeof servers === 'object' && !Array.isArray(servers) ? Object.keys(servers) : [];
    });
  } catch {
    return [];
  }
}

function explicitConfigFile(mcpConfig: string): string {
  const path = resolve(mcpConfig);
  if (!existsSync(path) || !statSync(path).isFile()) {
    throw new UsageError(`--mcp-config: ${path} does not exist or is not a file.`);
  }
  return path;
}

function bundledSelection(input: ServerSelectionInput): BundledServerName[] {
  if (input.builtinServers !== undefined) return parseBuiltinServers(input.builtinServers, '--builtin-servers');
  const fromEnv = input.env.SPROUT_AGENT_BUILTIN_SERVERS;
  if (fromEnv !== undefined) return parseBuiltinServers(fromEnv, 'SPROUT_AGENT_BUILTIN_SERVERS');
  return [...DEFAULT_BUNDLED_SERVERS];
}

interface ConfigSource {
  file: string;
  servers: McpServerConfig[];
}

/** Two servers cannot share a name: one allowlist entry, one tool prefix. The error names both places. */
function rejectNameClashes(sources: readonly ConfigSource[], bundled: readonly BundledServerName[]): void {
  const seen = new Map<string, string>();
  for (const { file, servers } of sources) {
    for (const { name } of servers) {
      const earlier = seen.get(name);
      if (earlier !== undefined) {
        throw new UsageError(`MCP server ${quotedName(name)} is defined in both ${earlier} and ${file}; two servers cannot share a name. Rename one of them.`);
      }
      seen.set(name, file);
      if (isBundledServerName(name) && bundled.includes(name)) {
        const rest = bundled.filter((n) => n !== name);
        throw new UsageError(
          `MCP server ${quotedName(name)} in ${file} has the same name as the bundled server ${quotedName(name)}; two servers cannot share a name. ` +
            `Rename it in ${file}, or turn the bundled one off: --builtin-servers "${rest.join(',')}" (or SPROUT_AGENT_BUILTIN_SERVERS).`,
        );
      }
    }
  }
}

/** A file inside the workspace (after links) is the repository's, whoever named it on the command line. */
function isWorkspaceFile(file: string, workspaceFolder: string): boolean {
  try {
    return isInside(realpathSync(workspaceFolder), realpathSync(file));
  } catch {
    return true;
  }
}

/** Secrets for the workspace's own servers: only the variables --allow-secret-env names; the API key counts whatever its name. */
function workspaceSecretPolicy(input: ServerSelectionInput): SecretPolicy {
  const key = input.env.OPENAI_API_KEY;
  return {
    knownSecrets: key !== undefined && key !== '' ? [key] : [],
    allow: (use) => (input.allowSecretEnv ?? []).includes(use.variable),
    howToAllow: (use) => `pass --allow-secret-env ${use.variable} if you want ${quotedName(use.server)} to have it`,
  };
}

/**
 * --mcp-config FILE's servers, then (with the opt-in) those of <cwd>/.vscode/mcp.json, then the
 * bundled ones. Without the opt-in the workspace file is only read for its server names.
 */
export function selectServers(input: ServerSelectionInput): ServerSelection {
  const workspaceFile = join(input.workspaceFolder, '.vscode', 'mcp.json');
  const bundled = bundledSelection(input);
  const trusted = trustsWorkspace(input.trustWorkspace, input.env);
  const files: string[] = [];
  if (input.mcpConfig !== undefined) files.push(explicitConfigFile(input.mcpConfig));
  let untrusted: ServerSelection['untrusted'];
  if (existsSync(workspaceFile) && !files.includes(workspaceFile)) {
    if (trusted) files.push(workspaceFile);
    else untrusted = { file: workspaceFile, names: declaredServerNames(workspaceFile) };
  }
  const notices: string[] = [];
  const env = { ...input.env };
  const off: ServerSelection['off'] = [];
  // `${input:id}` values come from SPROUT_AGENT_INPUT_<ID> (there is no one to ask in a CLI run); a
  // server whose value is missing stays off, and says which variable to set.
  const onMissingInput = (missing: MissingInputError): void => {
    const why = inputMissing(missing);
    off.push({ name: missing.server ?? '', why });
    notices.push(`${missing.source}: server ${quotedName(missing.server ?? '')} stays off: ${why}. The other servers start.`);
  };
  const vars = { workspaceFolder: input.workspaceFolder, userHome: homedir(), env, inputs: (id: string) => env[inputEnvName(id)], notices, onMissingInput };
  const secrets = workspaceSecretPolicy(input);
  const sources = files.map((file) => ({ file, servers: loadMcpConfigFile(file, isWorkspaceFile(file, input.workspaceFolder) ? { ...vars, secrets } : vars) }));
  rejectNameClashes(sources, bundled);
  const selection: ServerSelection = { configured: sources.flatMap((s) => s.servers), configFiles: files, bundled, untrusted, off, notices };
  // Last, so a run and `hooks check` print the same lines in the same order.
  const unstarted = untrustedNotice(selection);
  if (unstarted !== undefined) notices.push(unstarted);
  return selection;
}

/** Why a server with an `${input:id}` and no value stays off, with the variable to set. */
function inputMissing(missing: MissingInputError): string {
  const declare = missing.declared ? '' : ` (and declare "${missing.inputId}" in the file's "inputs")`;
  return `its ${missing.field} uses \${input:${missing.inputId}}, which has no value; set ${inputEnvName(missing.inputId)}${declare}`;
}

/** The command-line options that choose servers, as a run and `hooks check` both take them. */
export type ServerOptions = Partial<Pick<ServerSelectionInput, 'mcpConfig' | 'builtinServers'>> & Pick<ServerSelectionInput, 'trustWorkspace' | 'allowSecretEnv'>;

/** selectServers for a command line, with what was said about the configuration printed on `stderr`. */
export function selectAndAnnounce(options: ServerOptions, workspaceFolder: string, env: Env, stderr: { write(text: string): unknown }): ServerSelection {
  const { mcpConfig, builtinServers, trustWorkspace, allowSecretEnv } = options;
  const selection = selectServers({ workspaceFolder, mcpConfig, builtinServers, trustWorkspace, allowSecretEnv, env });
  for (const notice of selection.notices) stderr.write(`sprout-agent: ${notice}\n`);
  return selection;
}

/** What the CLI says on stderr when a workspace's own servers were left unstarted. */
function untrustedNotice(selection: ServerSelection): string | undefined {
  const found = selection.untrusted;
  if (found === undefined) return undefined;
  const names = found.names.length > 0 ? `servers ${found.names.join(', ')}` : 'MCP servers';
  const running = selection.bundled.length > 0 ? `the bundled servers (${selection.bundled.join(', ')})` : 'no MCP servers';
  return (
    `${found.file} defines ${names}, which did not start: the CLI runs a workspace's own servers only when you opt in. ` +
    `To start them, ${TRUST_HOW}, or pass --mcp-config ${found.file}. Running with ${running}.`
  );
}

function missingServerHint(name: string): string {
  if (isBundledServerName(name)) return `${quotedName(name)} is a bundled server that is off: add it to --builtin-servers (or SPROUT_AGENT_BUILTIN_SERVERS)`;
  return 'fix the name, or add the server with --mcp-config FILE';
}

/**
 * An allowlist entry that names no server of this run would silently disable a hook: a configuration
 * error (exit 2), worded after why the server is missing.
 */
export function checkHookAllowlist(allowlist: HookAllowlist, selection: ServerSelection): void {
  if (allowlist.kind === 'all') return;
  const known = new Set<string>([...selection.configured.map((s) => s.name), ...selection.bundled]);
  const missing = allowlist.names.filter((name) => !known.has(name));
  if (missing.length === 0) return;
  const off = selection.off.filter((o) => missing.includes(o.name));
  if (off.length > 0) throw new UsageError(`MCP_HOOK_SERVERS names ${off.map((o) => `${visibleName(o.name)}, which stays off: ${o.why}`).join('; ')}.`);
  const untrusted = selection.untrusted;
  const gated = untrusted === undefined ? [] : missing.filter((name) => untrusted.names.includes(name));
  if (untrusted !== undefined && gated.length > 0) {
    throw new UsageError(
      `MCP_HOOK_SERVERS names ${visibleNames(gated)}, defined in ${untrusted.file}, which does not start unless you opt in: ` +
        `${TRUST_HOW}, or pass --mcp-config ${untrusted.file}.`,
    );
  }
  const servers = [...known].join(', ') || 'none';
  const hints = missing.map(missingServerHint).filter((h, i, all) => all.indexOf(h) === i);
  throw new UsageError(`MCP_HOOK_SERVERS names ${visibleNames(missing)}, which is no server of this run (servers: ${servers}): ${hints.join('; ')}.`);
}
