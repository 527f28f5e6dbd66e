/**
 * InMemoryTranscriptStore: a TranscriptStore over an array. Records are cloned on the way in and out,
 * as a file round trip would, so a test that reopens a session from it sees only what was stored.
 */
import type { TranscriptRecord, TranscriptStore } from '../../src/agent/events';

export class InMemoryTranscriptStore implements TranscriptStore {
  constructor(readonly records: TranscriptRecord[] = []) {}
  append(record: TranscriptRecord): void {
    this.records.push(structuredClone(record));
  }
  async load(): Promise<TranscriptRecord[]> {
    return structuredClone(this.records);
  }
  async flush(): Promise<void> {}
}
