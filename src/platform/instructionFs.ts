/**
 * node:fs as the file system port instruction reading takes (src/customizations/instructionSources.ts):
 * folders listed without following links out of them, sizes from stat, sha256 of the exact bytes.
 * Both hosts read instructions through it.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';

export interface NodeInstructionFs {
  list(folder: string): { name: string; kind: 'file' | 'dir' }[];
  size(path: string): number | undefined;
  read(path: string): Uint8Array;
  sha256(bytes: Uint8Array): string;
  realPath(path: string): string | undefined;
}

export function nodeInstructionFs(): NodeInstructionFs {
  return {
    list(folder) {
      try {
        // A link to a folder is not followed (a link to `/` would walk the disk); a linked file (`CLAUDE.md -> AGENTS.md`, common) is a file.
        return readdirSync(folder, { withFileTypes: true }).flatMap((e): { name: string; kind: 'file' | 'dir' }[] => {
          if (e.isDirectory()) return [{ name: e.name, kind: 'dir' }];
          if (e.isFile() || (e.isSymbolicLink() && this.size(`${folder}/${e.name}`) !== undefined)) return [{ name: e.name, kind: 'file' }];
          return [];
        });
      } catch {
        return [];
      }
    },
    size(path) {
      try {
        const stat = statSync(path);
        return stat.isFile() ? stat.size : undefined;
      } catch {
        return undefined;
      }
    },
    read: (path) => readFileSync(path),
    sha256: (bytes) => createHash('sha256').update(bytes).digest('hex'),
    realPath(path) {
      try {
        return realpathSync(path).replace(/\\/g, '/');
      } catch {
        return undefined;
      }
    },
  };
}
