/**
 * MCP server configuration in the VS Code `.vscode/mcp.json` format, validated with zod and turned into
 * plain `McpServerConfig` values (file order kept, variables expanded, cwd resolved). This is the only
 * place that knows the file format; every error names the file, the server and the field so the user
 * can fix it without guessing.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, resolve, sep, basename } from 'node:path';
import { z } from 'zod';
import type { Transport } from '@modelcontextprotocol/client';
import { stripJsonComments } from './jsonc';
import { ToolNameError, validateServerName } from '../agent/toolNames';
import { parseEnvFile } from './envFile';
import { destinationOf, isSecretVariable, secretRefusal, type SecretPolicy } from './secretVariables';
import { quotedName } from '../agent/nameText';

export type McpTransportConfig =
  | { type: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { type: 'http'; url: string; headers: Record<string, string> }
  /**
   * A server that runs inside the host's own process (the editor's server in the extension host): never
   * read from a file, only given by a host. `connect` returns the client's end of a linked in-memory
   * pair whose other end it has given to its SDK server.
   */
  | { type: 'inProcess'; connect: () => Promise<Transport> };

export interface McpServerConfig {
  name: string;
  transport: McpTransportConfig;
}

export interface McpConfigVars {
  workspaceFolder: string;
  /** Defaults to the OS home folder. */
  userHome?: string;
  /** Source of `${env:NAME}`; defaults to `process.env`. */
  env?: Record<string, string | undefined>;
  /** Values for `${input:id}` (VS Code `inputs`), resolved by the host before parsing (see configInputs.ts). */
  inputs?: (id: string) => string | undefined;
  /**
   * A server whose `${input:id}` has no value: when given, that server is left out (and reported here)
   * instead of failing the whole file, so the others start. The CLI passes it; it has nobody to ask.
   */
  onMissingInput?: (missing: MissingInputError) => void;
  /** Receives what the user should know but is no error: which shape was read, keys that are ignored. */
  notices?: string[];
  /**
   * Set for workspace-defined servers: a secret-looking `${env:NAME}` goes into a server's
   * configuration only when the policy allows it (secretVariables.ts); otherwise the server is an error.
   */
  secrets?: SecretPolicy;
}

export class McpConfigError extends Error {
  constructor(
    readonly source: string,
    readonly server: string | undefined,
    readonly field: string | undefined,
    message: string,
  ) {
    const where = [source, server !== undefined ? `server ${quotedName(server)}` : undefined, field].filter(Boolean).join(': ');
    super(`${where}: ${message}`);
    this.name = 'McpConfigError';
  }
}

const envValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const stringMap = z.record(z.string(), z.string());

const stdioSchema = z
  .object({
    type: z.literal('stdio').optional(),
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), envValue).optional(),
    envFile: z.string().min(1).optional(),
    cwd: z.string().min(1).optional(),
  })
  .passthrough();

const httpSchema = z.object({ type: z.literal('http').optional(), url: z.string().min(1), headers: stringMap.optional() }).passthrough();

const fileSchema = z
  .object({
    servers: z.record(z.string(), z.unknown()).optional(),
    mcpServers: z.record(z.string(), z.unknown()).optional(),
    inputs: z.array(z.unknown()).optional(),
  })
  .passthrough();

const KNOWN_FILE_KEYS = new Set(['servers', 'mcpServers', 'inputs', '$schema']);
/** What a server entry may hold: VS Code's fields, plus Claude Code / Cursor / Cline's `disabled`. */
const KNOWN_SERVER_KEYS = new Set(['type', 'command', 'args', 'env', 'envFile', 'cwd', 'url', 'headers', 'disabled']);

/** `${input:id}` has no value: the server it is in cannot be configured. */
export class MissingInputError extends McpConfigError {
  constructor(
    source: string,
    server: string,
    field: string,
    readonly inputId: string,
    /** The file's `inputs` declare it (so only its value is missing). */
    readonly declared: boolean,
  ) {
    const variable = inputEnvName(inputId);
    super(
      source,
      server,
      field,
      declared
        ? `\${input:${inputId}} has no value. Set ${variable} (the CLI reads inputs from the environment; VS Code asks for them once).`
        : `\${input:${inputId}} has no value. Declare "${inputId}" in the file's "inputs" (VS Code asks for it once and keeps it in ` +
            `Secret Storage); the CLI reads it from the variable ${variable}, or write \${env:NAME} instead.`,
    );
    this.name = 'MissingInputError';
  }
}

type Expand = ((value: string, field: string) => string) & {
  /** After the entry is expanded: refuses a secret the policy does not allow, naming where it would go. */
  checkSecrets(destination: string): void;
};

function issueField(issue: z.core.$ZodIssue | undefined): string | undefined {
  return issue && issue.path.length > 0 ? issue.path.map(String).join('.') : undefined;
}

/** One server entry through its schema; the first problem becomes an error naming server and field. */
function parseServerEntry<T>(schema: z.ZodType<T>, raw: unknown, source: string, name: string, fallbackField: string, what: string): T {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new McpConfigError(source, name, issueField(issue) ?? fallbackField, issue?.message ?? what);
}

/** The ids the file's `inputs` declare (set by parseMcpConfig). */
type FileVars = McpConfigVars & { declaredInputs?: ReadonlySet<string> };

function makeExpander(source: string, server: string, vars: FileVars): Expand {
  const env = vars.env ?? process.env;
  const home = vars.userHome ?? homedir();
  const secrets: { variable: string; field: string; value: string }[] = [];
  const expand = (value: string, field: string): string =>
    value.replace(/\$\{([^}]*)\}/g, (whole, name: string) => {
      if (name === 'workspaceFolder') return vars.workspaceFolder;
      if (name === 'workspaceFolderBasename') return basename(vars.workspaceFolder);
      if (name === 'userHome') return home;
      if (name === '/' || name === 'pathSeparator') return sep;
      if (name.startsWith('env:')) {
        const variable = name.slice(4);
        const found = env[variable];
        if (vars.secrets !== undefined && found !== undefined && found !== '' && isSecretVariable(variable, found, vars.secrets.knownSecrets)) secrets.push({ variable, field, value: found });
        // VS Code resolves an unset variable to the empty string; we do the same so files stay portable.
        return found ?? '';
      }
      if (name.startsWith('input:')) {
        const id = name.slice(6);
        const value = vars.inputs?.(id);
        if (value !== undefined) return value;
        throw new MissingInputError(source, server, field, id, vars.declaredInputs?.has(id) === true);
      }
      throw new McpConfigError(
        source,
        server,
        field,
        `unknown variable ${whole}. Supported: \${workspaceFolder}, \${userHome}, \${env:NAME}.`,
      );
    });
  const checkSecrets = (destination: string): void => {
    const policy = vars.secrets;
    // The destination was built from expanded values: a secret in it (a host name, a command) is shown redacted.
    const shown = secrets.reduce((text, s) => (s.value.length >= 4 ? text.split(s.value).join(`\${env:${s.variable}}`) : text), destination);
    for (const { variable, field } of policy === undefined ? [] : secrets) {
      const use = { server, variable, field, destination: shown };
      if (!policy?.allow(use)) throw new McpConfigError(source, server, field, secretRefusal(use, policy?.howToAllow(use) ?? ''));
    }
  };
  return Object.assign(expand, { checkSecrets });
}

function expandMap(map: Record<string, unknown>, field: string, expand: Expand): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(map)) {
    if (value === null || value === undefined) continue;
    out[key] = expand(String(value), `${field}.${key}`);
  }
  return out;
}

function parseStdio(raw: unknown, source: string, name: string, vars: FileVars): McpServerConfig {
  const cfg = parseServerEntry(stdioSchema, raw, source, name, 'command', 'invalid stdio server');
  const expand = makeExpander(source, name, vars);
  const cwdRaw = cfg.cwd === undefined ? vars.workspaceFolder : expand(cfg.cwd, 'cwd');
  const cwd = isAbsolute(cwdRaw) ? cwdRaw : resolve(vars.workspaceFolder, cwdRaw);
  let env: Record<string, string> = {};
  if (cfg.envFile !== undefined) {
    const envPath = expand(cfg.envFile, 'envFile');
    const abs = isAbsolute(envPath) ? envPath : resolve(vars.workspaceFolder, envPath);
    try {
      env = parseEnvFile(readFileSync(abs, 'utf8'));
    } catch (error) {
      throw new McpConfigError(source, name, 'envFile', `cannot read ${abs}: ${(error as Error).message}`);
    }
  }
  env = { ...env, ...expandMap(cfg.env ?? {}, 'env', expand) };
  const command = expand(cfg.command, 'command');
  const args = (cfg.args ?? []).map((arg, i) => expand(arg, `args.${i}`));
  expand.checkSecrets(destinationOf({ type: 'stdio', command }));
  return { name, transport: { type: 'stdio', command, args, env, cwd } };
}

function parseHttp(raw: unknown, source: string, name: string, vars: FileVars): McpServerConfig {
  const cfg = parseServerEntry(httpSchema, raw, source, name, 'url', 'invalid http server');
  const expand = makeExpander(source, name, vars);
  const url = expand(cfg.url, 'url');
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    // As written: the expanded value may hold a secret.
    throw new McpConfigError(source, name, 'url', `"${cfg.url}"${url !== cfg.url ? ' (with its variables expanded)' : ''} is not an http(s) URL.`);
  }
  const headers = expandMap(cfg.headers ?? {}, 'headers', expand);
  expand.checkSecrets(destinationOf({ type: 'http', url }));
  return { name, transport: { type: 'http', url, headers } };
}

function parseServer(raw: unknown, source: string, name: string, vars: FileVars): McpServerConfig {
  try {
    validateServerName(name);
  } catch (error) {
    if (error instanceof ToolNameError) throw new McpConfigError(source, name, 'name', error.message);
    throw error;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new McpConfigError(source, name, undefined, 'expected an object with "command" (stdio) or "type": "http" and "url".');
  }
  const obj = raw as Record<string, unknown>;
  const type = obj.type ?? (obj.url !== undefined && obj.command === undefined ? 'http' : 'stdio');
  // "sse" (the old HTTP+SSE transport) is read as "http": Streamable HTTP is tried first, and a server
  // that has only the old transport is reached on it (openRetry.ts).
  if (type === 'http' || type === 'sse') return parseHttp({ ...obj, type: 'http' }, source, name, vars);
  if (type === 'stdio') return parseStdio(obj, source, name, vars);
  throw new McpConfigError(source, name, 'type', `unknown type ${JSON.stringify(type)}: use "stdio" or "http" (or "sse").`);
}

/** The environment variable the CLI reads for `${input:id}`: SPROUT_AGENT_INPUT_ plus the id in capitals. */
export function inputEnvName(id: string): string {
  return `SPROUT_AGENT_INPUT_${id.replace(/[^A-Za-z0-9]/g, '_').toUpperCase()}`;
}

/**
 * The server entries of a file in file order: VS Code's `servers`, or the `mcpServers` shape of Claude
 * Code, Cursor and Cline (said in a notice); a name in both is taken from `servers`.
 */
function serverEntries(data: z.infer<typeof fileSchema>, source: string, notices: string[] | undefined): [string, unknown][] {
  for (const key of Object.keys(data)) if (!KNOWN_FILE_KEYS.has(key)) notices?.push(`${source}: the key "${key}" is not MCP configuration and is ignored.`);
  const entries = Object.entries(data.servers ?? {});
  if (data.mcpServers === undefined) return entries;
  notices?.push(`${source}: read the "mcpServers" key (the Claude Code / Cursor / Cline shape)${data.servers !== undefined ? ' as well as "servers"' : ''}.`);
  const taken = new Set(entries.map(([name]) => name));
  for (const [name, raw] of Object.entries(data.mcpServers)) {
    if (taken.has(name)) notices?.push(`${source}: server ${quotedName(name)} is in both "servers" and "mcpServers"; the "servers" entry is used.`);
    else entries.push([name, raw]);
  }
  return entries;
}

/** Parses the parsed JSON of an mcp.json file; `source` names the file in errors. */
export function parseMcpConfig(json: unknown, source: string, vars: McpConfigVars): McpServerConfig[] {
  const file = fileSchema.safeParse(json);
  if (!file.success) {
    const issue = file.error.issues[0];
    throw new McpConfigError(source, undefined, issueField(issue), `${issue?.message ?? 'invalid file'} (expected {"servers": {...}}).`);
  }
  const servers: McpServerConfig[] = [];
  const declaredInputs = new Set((file.data.inputs ?? []).flatMap((i) => (typeof i === 'object' && i !== null && typeof (i as { id?: unknown }).id === 'string' ? [(i as { id: string }).id] : [])));
  const fileVars: FileVars = { ...vars, declaredInputs };
  for (const [name, raw] of serverEntries(file.data, source, vars.notices)) {
    if (typeof raw === 'object' && raw !== null && (raw as Record<string, unknown>).disabled === true) {
      vars.notices?.push(`${source}: server ${quotedName(name)} is marked "disabled" and does not start.`);
      continue;
    }
    if (typeof raw === 'object' && raw !== null) {
      for (const key of Object.keys(raw)) if (!KNOWN_SERVER_KEYS.has(key)) vars.notices?.push(`${source}: server ${quotedName(name)}: "${key}" is not supported and is ignored.`);
    }
    try {
      servers.push(parseServer(raw, source, name, fileVars));
    } catch (error) {
      if (!(error instanceof MissingInputError) || vars.onMissingInput === undefined) throw error;
      vars.onMissingInput(error);
    }
  }
  return servers;
}

/** Reads and parses an mcp.json file (JSON with comments and trailing commas, as VS Code allows). */
export function loadMcpConfigFile(path: string, vars: McpConfigVars): McpServerConfig[] {
  return parseMcpConfig(readMcpConfigJson(path), path, vars);
}

/** The file's JSON (comments and trailing commas allowed), or an McpConfigError naming the file. */
export function readMcpConfigJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new McpConfigError(path, undefined, undefined, `cannot read the file: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(stripJsonComments(text));
  } catch (error) {
    throw new McpConfigError(path, undefined, undefined, `not valid JSON: ${(error as Error).message}`);
  }
  return json;
}
