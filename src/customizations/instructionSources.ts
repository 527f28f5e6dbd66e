/**
 * The words instruction reading shares: the file system port both hosts give (node:fs) and the
 * sources a user can turn off (`sprout.instructions.sources`, the CLI's `--instructions-sources`).
 */
import { ConfigError } from '../agent/settings';

/** What reading needs of the file system; paths are absolute, with `/`. */
export interface InstructionFileSystem {
  /** A folder's entries; [] when it is missing or unreadable. */
  list(folder: string): { name: string; kind: 'file' | 'dir' }[];
  /** The size of a regular file in bytes; undefined when there is none. */
  size(path: string): number | undefined;
  read(path: string): Uint8Array;
  sha256(bytes: Uint8Array): string;
  /** The path with every link resolved; undefined when it cannot be resolved. */
  realPath(path: string): string | undefined;
}

/** The sources `sprout.instructions.sources` (and `--instructions-sources`) can turn off. */
export const INSTRUCTION_SOURCES = ['agents', 'claude', 'gemini', 'copilot', 'cursor', 'cline', 'user'] as const;
export type InstructionSource = (typeof INSTRUCTION_SOURCES)[number];

/**
 * A user's list of sources (`agents,claude,...`; "" for none), each checked: an unknown name is a
 * ConfigError naming `where` (the setting or variable) and the names it takes.
 */
export function parseInstructionSources(raw: string | readonly string[], where: string): InstructionSource[] {
  const names = (typeof raw === 'string' ? raw.split(',') : [...raw]).map((n) => n.trim().toLowerCase()).filter((n) => n !== '');
  const unknown = names.filter((n) => !(INSTRUCTION_SOURCES as readonly string[]).includes(n));
  if (unknown.length > 0) throw new ConfigError(where, `${where}: unknown instruction source${unknown.length === 1 ? '' : 's'} ${unknown.map((n) => `"${n}"`).join(', ')}; use a comma list of ${INSTRUCTION_SOURCES.join(', ')}.`);
  return [...new Set(names)] as InstructionSource[];
}
