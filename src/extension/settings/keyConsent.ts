/**
 * The API key goes only where the user said. A `sprout.model.baseUrl` from workspace (or folder)
 * settings that points at another origin than the user's own setting is the repository's choice, not
 * the user's: the key is sent there only after the user allowed that origin for this workspace. The
 * answer is kept in workspace state per origin, so a changed URL asks again; until then requests go
 * without a key (a local server that needs none keeps working). The prompt is replaceable for tests.
 */
import { DEFAULT_BASE_URL } from '../../agent/settings';
import type { MementoLike } from '../approvals/workspaceApprovals';

export type KeyConsentPrompt = (origin: string, url: string) => Promise<boolean>;

export interface BaseUrlLevels {
  /** The user's own value (or the default). */
  user: unknown;
  /** The workspace or folder value, if any. */
  workspace: unknown;
}

function originOf(url: unknown): string | undefined {
  try {
    return new URL(String(url)).origin;
  } catch {
    return undefined;
  }
}

/** The origin the key would go to on the workspace's say-so, or undefined when the user chose it. */
export function originNeedingConsent(levels: BaseUrlLevels, effectiveUrl: string): string | undefined {
  if (levels.workspace === undefined) return undefined;
  const target = originOf(effectiveUrl);
  const own = originOf(levels.user ?? DEFAULT_BASE_URL);
  return target !== undefined && target !== own ? target : undefined;
}

export class KeyConsent {
  private readonly asking = new Map<string, Promise<boolean>>();

  constructor(
    private readonly state: MementoLike,
    public prompt: KeyConsentPrompt,
  ) {}

  private key(origin: string): string {
    return `sprout.keyConsent.${origin}`;
  }

  /** The stored answer for `origin`, if the user gave one. */
  decided(origin: string): boolean | undefined {
    const stored = this.state.get<unknown>(this.key(origin));
    return typeof stored === 'boolean' ? stored : undefined;
  }

  /** True when the key may go to `origin`; asks once (concurrent calls share the question) and remembers. */
  ensure(origin: string, url: string): Promise<boolean> {
    const stored = this.decided(origin);
    if (stored !== undefined) return Promise.resolve(stored);
    let pending = this.asking.get(origin);
    if (!pending) {
      pending = this.prompt(origin, url)
        .then(async (allowed) => {
          await this.state.update(this.key(origin), allowed);
          return allowed;
        })
        .finally(() => this.asking.delete(origin));
      this.asking.set(origin, pending);
    }
    return pending;
  }
}
