/**
 * Consent for a secret in a workspace-defined MCP server (secretVariables.ts says which variables are
 * secrets): trusting a workspace lets its servers run, it does not give them the user's secrets. The
 * user is asked once per server, variable and destination, in this workspace; the answer is kept in
 * workspace state, so a server that later sends the variable somewhere else asks again. The prompt
 * (settings/lifecycle.ts) is replaceable for tests.
 */
import { createHash } from 'node:crypto';
import type { SecretUse } from '../../mcp/secretVariables';
import type { MementoLike } from '../approvals/workspaceApprovals';
import { OpenQuestions } from './openQuestions';

export type SecretConsentPrompt = (use: SecretUse) => Promise<boolean>;

export class SecretConsent {
  private readonly asking = new OpenQuestions<boolean>();

  constructor(
    private readonly state: MementoLike,
    public prompt: SecretConsentPrompt,
  ) {}

  private key(use: SecretUse): string {
    const id = createHash('sha256').update(JSON.stringify([use.server, use.variable, use.destination])).digest('hex').slice(0, 32);
    return `sprout.secretConsent.${id}`;
  }

  /**
   * True when `use` may go ahead; asks once (concurrent calls share the question, openQuestions.ts)
   * and remembers the answer, even one that comes after the asking build is gone.
   */
  async ensure(use: SecretUse, signal?: AbortSignal): Promise<boolean> {
    const key = this.key(use);
    const stored = this.state.get<unknown>(key);
    if (typeof stored === 'boolean') return stored;
    return this.asking.ask(
      key,
      async () => {
        const allowed = await this.prompt(use);
        await this.state.update(key, allowed);
        return allowed;
      },
      signal,
    );
  }
}
