/**
 * The CLI's memory of what model endpoints taught (adaptationMemory.ts): one JSON file in the user's
 * private state folder (`$XDG_STATE_HOME/sprout-agent/model-adaptations.json`, 0600 in a 0700 folder),
 * never in the workspace, so a later run starts with the shape each endpoint and model needs. A file
 * that is missing, unreadable, a symlink or not JSON counts as empty; a write that fails is reported
 * and the run goes on (the lesson is then learned again next time).
 */
import { lstatSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { emptyRecord, parseRecord, RecordedAdaptations, type AdaptationMemory, type AdaptationRecord } from '../model/adaptationMemory';
import { ensurePrivateDir, stateHome, writePrivateFileAtomic, type StateEnv } from '../platform/privateState';
import { errorMessage } from '../agent/errorMessage';

export const ADAPTATION_FILE = 'model-adaptations.json';

export function adaptationFilePath(env: StateEnv): string {
  return join(stateHome(env), ADAPTATION_FILE);
}

function readRecord(path: string): AdaptationRecord {
  try {
    if (!lstatSync(path).isFile()) return emptyRecord();
    return parseRecord(JSON.parse(readFileSync(path, 'utf8')) as unknown);
  } catch {
    return emptyRecord();
  }
}

export function fileAdaptationMemory(path: string, onError: (message: string) => void = () => undefined): AdaptationMemory {
  return new RecordedAdaptations(
    () => readRecord(path),
    (record) => {
      try {
        ensurePrivateDir(dirname(path));
        writePrivateFileAtomic(path, `${JSON.stringify(record, null, 1)}\n`);
      } catch (error) {
        onError(`could not remember what the model endpoint taught in ${path}: ${errorMessage(error)}`);
      }
    },
  );
}
