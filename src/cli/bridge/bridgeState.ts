/**
 * What the hook bridge remembers of one agent session between events (each event is a process of its
 * own, or a request to the hook host): the `_Stop` budget used, whether the last end of turn drew an
 * objection (and which), the consecutive-timeout counters that get a server killed, the prompt's
 * `_PreToolUse` denials and its tool calls (`_Stop`'s evidence). Kept in the private state folder,
 * one file per agent and session, 0600, written whole; a file that cannot be read starts afresh.
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ensurePrivateDir, stateHome, writePrivateFileAtomic, type StateEnv } from '../../platform/privateState';
import type { AgentId } from '../../agentHooks/agentFormat';

const objection = z.object({ server: z.string(), text: z.string() });

const stateSchema = z.object({
  rejectionsUsed: z.number().int().nonnegative(),
  afterObjection: z.boolean(),
  pending: z.array(objection).nullable(),
  timeouts: z.record(z.string(), z.number().int().nonnegative()),
  denialsUsed: z.number().int().nonnegative(),
  toolCalls: z.array(z.object({ tool: z.string(), isError: z.boolean() })),
  /** Each subagent's own `_SubagentStop` gate (docs/hooks.md#_subagentstop), by the agent's id for it. */
  subagents: z.record(z.string(), z.object({ rejectionsUsed: z.number().int().nonnegative(), afterObjection: z.boolean(), pending: z.array(objection).nullable() })).default({}),
});

export type BridgeSessionState = z.infer<typeof stateSchema>;

export function freshBridgeState(): BridgeSessionState {
  return { rejectionsUsed: 0, afterObjection: false, pending: null, timeouts: {}, denialsUsed: 0, toolCalls: [], subagents: {} };
}

/** Session files untouched this long belong to sessions long over: removed when a session starts. */
const MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

export class BridgeStateStore {
  constructor(private readonly env: StateEnv) {}

  private dir(agent: AgentId): string {
    return ensurePrivateDir(join(stateHome(this.env), 'bridge', agent));
  }

  private file(agent: AgentId, sessionId: string): string {
    // Session ids come from the agent's payload: never let one name a path outside the folder.
    return join(this.dir(agent), `${sessionId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 120)}.json`);
  }

  load(agent: AgentId, sessionId: string): BridgeSessionState {
    try {
      const parsed = stateSchema.safeParse(JSON.parse(readFileSync(this.file(agent, sessionId), 'utf8')));
      return parsed.success ? parsed.data : freshBridgeState();
    } catch {
      return freshBridgeState();
    }
  }

  save(agent: AgentId, sessionId: string, state: BridgeSessionState): void {
    writePrivateFileAtomic(this.file(agent, sessionId), JSON.stringify(state));
  }

  forget(agent: AgentId, sessionId: string): void {
    rmSync(this.file(agent, sessionId), { force: true });
  }

  prune(agent: AgentId, now = Date.now()): void {
    const dir = this.dir(agent);
    for (const name of readdirSync(dir)) {
      try {
        if (statSync(join(dir, name)).mtimeMs < now - MAX_AGE_MS) rmSync(join(dir, name), { force: true });
      } catch {
        // Gone already.
      }
    }
  }
}
