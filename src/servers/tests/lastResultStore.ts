/**
 * The last test result on disk (`<state-dir>/last-test-run.json`), so a restarted server still knows
 * it. Written atomically, in a folder only the user can enter (test output can hold secrets); read back only when it has the current shape (an older or damaged file is
 * ignored, which costs one run, never a wrong verdict).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFileAtomic } from '../../platform/privateState';
import { persistedResultSchema, type TestRunResult } from './testResult';

export class LastResultStore {
  private readonly file: string;

  constructor(private readonly stateDir: string) {
    this.file = join(stateDir, 'last-test-run.json');
  }

  load(): TestRunResult | undefined {
    try {
      const parsed = persistedResultSchema.safeParse(JSON.parse(readFileSync(this.file, 'utf8')));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  save(result: TestRunResult): void {
    try {
      writePrivateFileAtomic(this.file, JSON.stringify(result));
    } catch {
      // Persistence is a convenience: without it a restarted server just runs the suite again.
    }
  }
}
