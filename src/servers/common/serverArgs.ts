/**
 * Command-line options shared by the bundled MCP servers: the workspace root (`--root`, default cwd)
 * and the state directory (`--state-dir`, default a per-root folder under the user's private state
 * root, so two workspaces never share a todo list). Hosts pass one state dir per chat session.
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { privateStateDir } from '../../platform/privateState';

export interface ServerArgs {
  root: string;
  stateDir: string;
  /** Every `--name value` pair, for server-specific options. */
  options: Map<string, string>;
}

/**
 * Inside a folder only the user can enter, so the name may be derived from the root (and stay stable);
 * created and checked from the state root down.
 */
export function defaultStateDir(root: string): string {
  const hash = createHash('sha256').update(resolve(root)).digest('hex').slice(0, 12);
  return privateStateDir(process.env, 'workspaces', hash);
}

/** What a server accepts: its own options (besides --root and --state-dir) and its usage text. */
export interface ServerArgsSpec {
  /** Option names without the dashes, e.g. `command`, `timeout-ms`. */
  extraOptions?: readonly string[];
  /** Printed for --help and after an argument error. */
  usage: string;
}

/** `--help` / `-h` was given: print `usage` on stdout and exit 0 (runStdioServer does). */
export class HelpRequested extends Error {
  constructor(readonly usage: string) {
    super('help requested');
    this.name = 'HelpRequested';
  }
}

const COMMON_OPTIONS = ['root', 'state-dir'];

/** Options that take no value; present means on. */
const FLAGS = new Set(['allow-protected-writes']);

function usageError(problem: string, spec: ServerArgsSpec): Error {
  return new Error(`${problem}\n\n${spec.usage.trimEnd()}`);
}

/** The option node:util named in its error (`'--root <value>'` -> `--root`). */
function optionIn(message: string): string {
  return /'(-{1,2}[^' =<]+)/.exec(message)?.[1] ?? 'an option';
}

/** node:util's parse error, in the servers' words, with the usage. */
function parseError(error: unknown, spec: ServerArgsSpec): Error {
  const { code, message } = error as { code?: string; message?: string };
  const text = message ?? String(error);
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return usageError(`unknown option ${optionIn(text)}`, spec);
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return usageError(`unexpected argument "${/'([^']*)'/.exec(text)?.[1] ?? ''}" (options are --name value)`, spec);
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return usageError(/does not take an argument/.test(text) ? `option ${optionIn(text)} takes no value` : `option ${optionIn(text)} needs a value`, spec);
    default:
      return usageError(text, spec);
  }
}

/**
 * Parses `--name value`, `--name=value` and the bare FLAGS against the spec (node:util parseArgs,
 * strict): `--help` asks for the usage, and an unknown option, an option without a value or a stray
 * word is an error that shows it.
 */
export function parseServerArgs(argv: readonly string[], spec: ServerArgsSpec, cwd: string = process.cwd()): ServerArgs {
  if (argv.some((arg) => arg === '--help' || arg === '-h')) throw new HelpRequested(spec.usage);
  const names = [...COMMON_OPTIONS, ...(spec.extraOptions ?? [])];
  const declared: Record<string, { type: 'string' | 'boolean' }> = {};
  for (const name of names) declared[name] = { type: FLAGS.has(name) ? 'boolean' : 'string' };
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: [...argv], options: declared, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw parseError(error, spec);
  }
  const options = new Map<string, string>();
  for (const [name, value] of Object.entries(values)) if (value !== undefined) options.set(name, String(value));
  const root = resolve(cwd, options.get('root') ?? '.');
  const stateDir = resolve(cwd, options.get('state-dir') ?? defaultStateDir(root));
  return { root, stateDir, options };
}

/** A positive integer option, or the default; throws with the option's name on a bad value. */
export function intOption(args: ServerArgs, name: string, fallback: number): number {
  const raw = args.options.get(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer, got "${raw}"`);
  return value;
}

/** A bare flag (see FLAGS): present means on. */
export function flagOption(args: ServerArgs, name: string): boolean {
  return args.options.get(name) === 'true';
}

/** A JSON array of strings, e.g. --protected-paths '["secrets/**"]'; empty when absent. */
export function stringListOption(args: ServerArgs, name: string): string[] {
  const raw = args.options.get(name);
  if (raw === undefined) return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new Error(`--${name} must be a JSON array of strings, got "${raw}"`);
  }
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new Error(`--${name} must be a JSON array of strings, got ${raw}`);
  return value as string[];
}
