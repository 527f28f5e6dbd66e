/**
 * Which of VS Code's models get images and which get a note instead, the way the endpoint client
 * learns it (adaptations.ts): a model whose provider refused an image, in words such as "does not
 * support images" (rejectionSignatures.ts), is remembered (the shared adaptation memory, under the
 * endpoint `vscode`, so a later window sends it notes from the start), and a VS Code without
 * LanguageModelDataPart (before 1.106) sends every model notes. Each is said once per conversation,
 * as a `model_adapted` note.
 */
import type { ModelCallOptions, ModelConversation } from '../../agent/ports';
import { ADAPTATIONS } from '../../model/adaptations';
import { processAdaptationMemory, type AdaptationMemory } from '../../model/adaptationMemory';
import { IMAGE_REFUSAL } from '../../model/rejectionSignatures';
import type { LmImageMode } from './lmImages';

/** Where the adaptation memory files what VS Code's models taught. */
export const VSCODE_ENDPOINT = 'vscode';

const CHANGE = ADAPTATIONS['no-images'].change;

export class LmImageLessons {
  private readonly told = new WeakMap<ModelConversation, Set<string>>();
  /** For calls without a conversation: told once per client. */
  private readonly toldAlone = new Set<string>();
  private readonly memory: AdaptationMemory;

  constructor(
    memory: AdaptationMemory | undefined,
    /** Whether this VS Code has LanguageModelDataPart. */
    private readonly dataParts: boolean,
  ) {
    this.memory = memory ?? processAdaptationMemory();
  }

  /** How this model gets images now; says once per conversation why it gets notes, when it does. */
  mode(model: string, options: ModelCallOptions, sendsImages: boolean): LmImageMode {
    const refused = this.memory.recall(VSCODE_ENDPOINT, model).includes('no-images') === true;
    if (!this.dataParts) {
      if (sendsImages) this.tell(model, options, 'host', 'this version of VS Code cannot pass images to its language models (1.106 and later can)');
      return 'note';
    }
    if (refused) this.tell(model, options, 'memory');
    return refused ? 'note' : 'parts';
  }

  /** Whether a failure is the model refusing images; if so it is learned and said, and the request can go again with notes. */
  learn(model: string, message: string, options: ModelCallOptions): boolean {
    if (!IMAGE_REFUSAL.test(message)) return false;
    const learned = this.memory.recall(VSCODE_ENDPOINT, model) ?? [];
    this.memory.remember(VSCODE_ENDPOINT, model, [...learned.filter((id) => id !== 'no-images'), 'no-images']);
    this.markTold(model, options);
    options.onAdapted?.({ endpoint: 'VS Code', model, change: CHANGE, learnedFrom: 'rejection', said: message.split('\n')[0] ?? '' });
    return true;
  }

  private tell(model: string, options: ModelCallOptions, learnedFrom: 'memory' | 'host', said?: string): void {
    if (!this.markTold(model, options)) return;
    options.onAdapted?.({ endpoint: 'VS Code', model, change: CHANGE, learnedFrom, ...(said === undefined ? {} : { said }) });
  }

  /** False when this conversation was told about this model already. */
  private markTold(model: string, options: ModelCallOptions): boolean {
    let told = this.toldAlone;
    if (options.conversation !== undefined) {
      told = this.told.get(options.conversation) ?? new Set();
      this.told.set(options.conversation, told);
    }
    if (told.has(model)) return false;
    told.add(model);
    return true;
  }
}
