/**
 * What endpoints taught, remembered per endpoint and model, so the next session (and the next run of
 * the CLI, and the editor after a restart) sends the right shape from its first request. The hosts
 * keep it as user state, never in the workspace: the CLI in a private file, the extension in VS
 * Code's global state. Each entry is keyed by the base URL (query included: an Azure api-version is
 * part of what the endpoint is) and the model, so nothing learned at one endpoint reaches another.
 * The record is plain data (names of adaptations), bounded, and read defensively: it is never trusted
 * for more than which known transformations to apply. An endpoint's secrets (`?api-key=`, a password
 * in the URL) are never part of the key: it is stored redacted (endpointSecrets.ts), and a record
 * written before that is re-keyed when read, so the next save drops the clear text.
 */
import { isAdaptationId, type AdaptationId } from './adaptations';
import { redactEndpoint } from './endpointSecrets';

export interface AdaptationMemory {
  /** The adaptations learned for this endpoint and model, in the order they were learned. */
  recall(endpoint: string, model: string): AdaptationId[];
  remember(endpoint: string, model: string, learned: readonly AdaptationId[]): void;
}

/** Most endpoint-model pairs kept; the least recently taught go first. */
export const MAX_REMEMBERED = 200;

/** The stored form: `{ version, entries: { "<endpoint> <model>": [ids...] } }`, newest last. */
export interface AdaptationRecord {
  version: 1;
  entries: Record<string, string[]>;
}

export function emptyRecord(): AdaptationRecord {
  return { version: 1, entries: {} };
}

function keyOf(endpoint: string, model: string): string {
  return `${redactEndpoint(endpoint)} ${model}`;
}

/** A stored key with its endpoint part redacted (records written before redaction may hold secrets). */
function rekeyed(key: string): string {
  const cut = key.indexOf(' ');
  return cut < 0 ? key : keyOf(key.slice(0, cut), key.slice(cut + 1));
}

/** Whatever was stored, as a record: anything malformed is dropped, unknown names are ignored. */
export function parseRecord(value: unknown): AdaptationRecord {
  const entries = (value as { entries?: unknown } | null)?.entries;
  const record = emptyRecord();
  if (typeof entries !== 'object' || entries === null || Array.isArray(entries)) return record;
  for (const [key, ids] of Object.entries(entries as Record<string, unknown>).slice(-MAX_REMEMBERED)) {
    if (Array.isArray(ids)) record.entries[rekeyed(key)] = ids.filter(isAdaptationId);
  }
  return record;
}

/** An AdaptationMemory over a stored record: `load` reads it, `save` writes the whole record back. */
export class RecordedAdaptations implements AdaptationMemory {
  constructor(
    private readonly load: () => AdaptationRecord,
    private readonly save: (record: AdaptationRecord) => void,
  ) {}

  recall(endpoint: string, model: string): AdaptationId[] {
    return (this.load().entries[keyOf(endpoint, model)] ?? []).filter(isAdaptationId);
  }

  remember(endpoint: string, model: string, learned: readonly AdaptationId[]): void {
    const record = this.load();
    const key = keyOf(endpoint, model);
    delete record.entries[key];
    record.entries[key] = [...learned];
    const keys = Object.keys(record.entries);
    for (const old of keys.slice(0, Math.max(0, keys.length - MAX_REMEMBERED))) delete record.entries[old];
    this.save(record);
  }
}

/** Remembered for the life of the process only (tests, and hosts that keep no state). */
export function processAdaptationMemory(): AdaptationMemory {
  let record = emptyRecord();
  return new RecordedAdaptations(
    () => record,
    (next) => (record = next),
  );
}
