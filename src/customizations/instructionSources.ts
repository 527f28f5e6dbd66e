/**
 * The words instruction reading shares: the file system port both hosts give (node:fs) and the
 * sources a user can turn off (`sprout.instructions.sources`, the CLI's `--instructions-sources`).
 */

/** What reading needs of the file system; paths are absolute, with `/`. */
export interface InstructionFileSystem {
  /** A folder's entries; [] when it is missing or unreadable. */
  list(folder: string): { name: string; kind: 'file' | 'dir' }[];
  /** The size of a regular file in bytes; undefined when there is none. */
  size(path: string): number | undefined;
  read(path: string): Uint8Array;
  sha256(bytes: Uint8Array): string;
}

/** The sources `sprout.instructions.sources` (and `--instructions-sources`) can turn off. */
export const INSTRUCTION_SOURCES = ['agents', 'claude', 'gemini', 'copilot', 'cursor', 'cline', 'user'] as const;
export type InstructionSource = (typeof INSTRUCTION_SOURCES)[number];
