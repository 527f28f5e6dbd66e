/**
 * Command-line options shared by the bundled MCP servers: the workspace root (`--root`, default cwd)
 * and the state directory (`--state-dir`, default a per-root folder under the OS temp dir, so two
 * workspaces never share a todo list). Hosts pass one state dir per chat session.
 */
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface ServerArgs {
  root: string;
  stateDir: string;
  /** Every `--name value` pair, for server-specific options. */
  options: Map<string, string>;
}

export function defaultStateDir(root: string): string {
  const hash = createHash('sha256').update(resolve(root)).digest('hex').slice(0, 12);
  return join(tmpdir(), 'sprout-agent', hash);
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

function usageError(problem: string, spec: ServerArgsSpec): Error {
  return new Error(`${problem}\n\n${spec.usage.trimEnd()}`);
}

/**
 * Parses `--name value` and `--name=value` against the spec: `--help` asks for the usage, and an
 * unknown option, a flag without a value or a stray word is an error that shows it.
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
