/**
 * The protocol era each MCP server spoke, kept in a private file (0600 in a 0700 folder) so the next
 * run or window does not ask again: the CLI's state folder, the extension's storage. Keys are digests
 * of server configurations (no secrets); a file that cannot be read or holds something else is an
 * empty memory, never an error, since every entry is only a hint the next start can do without.
 */
import { readFileSync } from 'node:fs';
import type { EraStore, RememberedEra } from '../mcp/protocolEra';
import { writePrivateFileAtomic } from '../platform/privateState';

function isRemembered(value: unknown): value is RememberedEra {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  if (typeof v.at !== 'number') return false;
  if (v.era === 'legacy') return true;
  const discover = v.discover as Record<string, unknown> | null | undefined;
  return v.era === 'modern' && typeof discover === 'object' && discover !== null && Array.isArray(discover.supportedVersions);
}

function load(path: string): Record<string, RememberedEra> {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return {};
  }
  if (typeof json !== 'object' || json === null) return {};
  return Object.fromEntries(Object.entries(json).filter(([, value]) => isRemembered(value))) as Record<string, RememberedEra>;
}

export function fileEraStore(path: string, onError?: (error: Error) => void): EraStore {
  const entries = load(path);
  return {
    get: (key) => entries[key],
    set: (key, value) => {
      if (value === undefined) delete entries[key];
      else entries[key] = value;
      try {
        writePrivateFileAtomic(path, JSON.stringify(entries));
      } catch (error) {
        onError?.(error as Error);
      }
    },
  };
}
