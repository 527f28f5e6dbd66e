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

/** Parses `--name value` and `--name=value`; throws on a flag without a value or a stray word. */
export function parseServerArgs(argv: readonly string[], cwd: string = process.cwd()): ServerArgs {
  const options = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (!arg.startsWith('--')) throw new Error(`unexpected argument "${arg}" (options are --name value)`);
    const eq = arg.indexOf('=');
    if (eq > 0) {
      options.set(arg.slice(2, eq), arg.slice(eq + 1));
      continue;
    }
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`option ${arg} needs a value`);
    options.set(arg.slice(2), value);
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
