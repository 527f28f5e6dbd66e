/**
 * The extension's memory of what model endpoints taught (adaptationMemory.ts), in VS Code's global
 * state: user state that survives a restart and follows the user, never the workspace's (a
 * repository cannot plant a shape for an endpoint). Keyed by endpoint and model like the CLI's file.
 */
import { parseRecord, RecordedAdaptations, type AdaptationMemory } from '../../model/adaptationMemory';
import type { Logger } from '../../agent/ports';
import { errorMessage } from '../../agent/errorMessage';
import type { MementoLike } from '../approvals/workspaceApprovals';

export const ADAPTATIONS_KEY = 'sprout.modelAdaptations';

export function globalStateAdaptations(state: MementoLike, logger?: Logger): AdaptationMemory {
  return new RecordedAdaptations(
    () => parseRecord(state.get<unknown>(ADAPTATIONS_KEY)),
    (record) => {
      state.update(ADAPTATIONS_KEY, record).then(undefined, (error: unknown) => logger?.warn('could not remember what the model endpoint taught', { message: errorMessage(error) }));
    },
  );
}
