/** Builds an AgentSession over in-memory doubles and a real clock, recording every event. */
import { AgentSession } from '../../../src/agent/session';
import { DEFAULT_SETTINGS } from '../../../src/agent/settings';
import type { AgentEvent } from '../../../src/agent/events';
import type { AgentSettings, HookSettings } from '../../../src/agent/settings';
import { NodeClock } from '../../../src/platform/nodeClock';
import { InMemoryToolHost, type InMemoryServer } from '../../fakes/InMemoryToolHost';
import { InMemoryTranscriptStore } from '../../fakes/InMemoryTranscriptStore';
import { ScriptedModelClient, type ScriptStep } from '../../fakes/ScriptedModelClient';

export function settings(overrides: Partial<AgentSettings> = {}, hooks: Partial<HookSettings> = {}): AgentSettings {
  return {
    ...DEFAULT_SETTINGS,
    model: 'test-model',
    ...overrides,
    hooks: { ...DEFAULT_SETTINGS.hooks, allowlist: { kind: 'all' }, ...hooks },
  };
}

export interface Harness {
  session: AgentSession;
  model: ScriptedModelClient;
  tools: InMemoryToolHost;
  events: AgentEvent[];
  transcript: InMemoryTranscriptStore;
  of<T extends AgentEvent['type']>(type: T): Extract<AgentEvent, { type: T }>[];
}

export async function harness(opts: {
  script?: ScriptStep[];
  servers?: InMemoryServer[];
  settings?: AgentSettings;
  transcript?: InMemoryTranscriptStore;
}): Promise<Harness> {
  const model = new ScriptedModelClient(opts.script ?? []);
  const tools = new InMemoryToolHost(opts.servers ?? []);
  const transcript = opts.transcript ?? new InMemoryTranscriptStore();
  const events: AgentEvent[] = [];
  const session = await AgentSession.open({
    sessionId: 'test-session',
    settings: opts.settings ?? settings(),
    model,
    tools,
    clock: new NodeClock(),
    transcript,
  });
  session.subscribe((e) => events.push(e));
  return {
    session,
    model,
    tools,
    events,
    transcript,
    of: <T extends AgentEvent['type']>(type: T) => events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type),
  };
}
