/**
 * Command-line options shared by the bundled MCP servers: the workspace root (`--root`, default cwd)
 * and the state directory (`--state-dir`, default a per-root folder under the user's private state
 * root, so two workspaces never share a todo list). Hosts pass one state dir per chat session.
 */
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { stateHome } from '../../platform/privateState';

export interface ServerArgs {
  root: string;
  stateDir: string;
  /** Every `--name value` pair, for server-specific options. */
  options: Map<string, string>;
}

/** Inside a folder only the user can enter, so the name may be derived from the root (and stay stable). */
export function defaultStateDir(root: string): string {
  const hash = createHash('sha256').update(resolve(root)).digest('hex').slice(0, 12);
  return join(stateHome(), 'workspaces', hash);
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

/**
 * Parses `--name value`, `--name=value` and the bare FLAGS against the spec: `--help` asks for the
 * usage, and an unknown option, an option without a value or a stray word is an error that shows it.
 */
export function parseServerArgs(argv: readonly string[], spec: ServerArgsSpec, cwd: string = process.cwd()): ServerArgs {
  const known = new Set([...COMMON_OPTIONS, ...(spec.extraOptions ?? [])]);
  if (argv.some((arg) => arg === '--help' || arg === '-h')) throw new HelpRequested(spec.usage);
  const options = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (!arg.startsWith('--')) throw usageError(`unexpected argument "${arg}" (options are --name value)`, spec);
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    if (!known.has(name)) throw usageError(`unknown option --${name}`, spec);
    if (eq > 0) {
      options.set(name, arg.slice(eq + 1));
      continue;
    }
    if (FLAGS.has(name)) {
      options.set(name, 'true');
      continue;
    }
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) throw usageError(`option ${arg} needs a value`, spec);
    options.set(name, value);
    i++;
  }
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

/** A bare flag (see FLAGS), or `--name=true|false`. */
export function flagOption(args: ServerArgs, name: string): boolean {
  const raw = args.options.get(name);
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new Error(`--${name} takes no value (or =true / =false), got "${raw}"`);
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
