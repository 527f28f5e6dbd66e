/**
 * Bench: 300 tools over 6 real MCP servers (child processes, each tool with a sentence of description
 * and a small JSON schema, as real servers list them), the same one-round prompt sent two ways side by
 * side, interleaved: with the tool search (the default threshold: the model gets `sprout__search_tools`
 * and finds the rest) and with every tool sent (the threshold raised above 300, against a fake endpoint
 * that takes 300 tools, as a self-hosted server does; OpenAI refuses more than 128). Reported: the
 * request's size in tokens (its JSON body at the agent's own 4 characters a token, the tools' share
 * apart) and the first round's latency (the prompt until the model's answer is in, the fake answering
 * at once, so what differs is the agent building, sending and the endpoint reading the request).
 */
import { CHARS_PER_TOKEN } from '../../src/agent/compactionRules';
import type { FakeToolSpec } from '../fakes/hookServer';
import { fakeReply } from '../fakes/fakeOpenAiServer';
import { openRig, type Rig } from '../integration/loop/loopHarness';
import { fmt, timeSideBySide } from './benchHarness';

const SERVERS = 6;
const TOOLS_PER_SERVER = 50;
const ITERATIONS = 15;
const VERBS = ['list', 'get', 'create', 'update', 'delete', 'search', 'sync', 'export', 'archive', 'restore'];
const NOUNS = ['issue', 'pull_request', 'branch', 'release', 'deployment', 'alert', 'dashboard', 'ticket', 'invoice', 'customer', 'incident', 'pipeline', 'secret', 'bucket', 'table', 'page', 'comment', 'label', 'milestone', 'runner'];

function toolOf(server: number, i: number): FakeToolSpec {
  const verb = VERBS[i % VERBS.length] ?? 'get';
  const noun = NOUNS[Math.floor(i / VERBS.length) % NOUNS.length] ?? 'item';
  return {
    name: `${verb}_${noun}_${i}`,
    description: `${verb[0]?.toUpperCase()}${verb.slice(1)}s a ${noun.replace('_', ' ')} in workspace ${server}. Returns the ${noun.replace('_', ' ')} as JSON with its id, title, state and timestamps; fails when the caller lacks access.`,
    inputSchema: {
      type: 'object',
      properties: {
        owner: { type: 'string', description: 'The account or organisation that owns it' },
        id: { type: 'string', description: `The ${noun.replace('_', ' ')} id` },
        limit: { type: 'number', description: 'At most this many results (1-100)' },
        state: { type: 'string', enum: ['open', 'closed', 'all'], description: 'Which ones to include' },
      },
      required: ['owner'],
    },
    behaviour: { kind: 'text', text: 'ok' },
  };
}

async function rigWith(allTools: boolean): Promise<Rig> {
  const servers = Array.from({ length: SERVERS }, (_, s) => ({
    name: `svc${s}`,
    config: { echo: false, extraTools: Array.from({ length: TOOLS_PER_SERVER }, (_, i) => toolOf(s, i)) },
  }));
  const rig = await openRig({
    servers,
    ...(allTools ? { settings: { toolSearchThreshold: 1000 }, fake: { maxTools: 1000 } } : {}),
  });
  rig.fake.setResponder(() => fakeReply.text('ok'));
  return rig;
}

/** The first request's size and tool count (the rig's fake keeps every request). */
function firstRequest(rig: Rig): { tokens: number; toolTokens: number; tools: number } {
  const body = rig.fake.chatRequests()[0]?.body as { tools?: unknown[] } | undefined;
  const tools = body?.tools ?? [];
  return {
    tokens: Math.ceil(JSON.stringify(body ?? {}).length / CHARS_PER_TOKEN),
    toolTokens: Math.ceil(JSON.stringify(tools).length / CHARS_PER_TOKEN),
    tools: tools.length,
  };
}

export async function runToolSearchBench(): Promise<string[]> {
  const searched = await rigWith(false);
  const all = await rigWith(true);
  try {
    const prompt = 'How many open issues does the octo org have?';
    const times = await timeSideBySide(
      {
        searched: () => searched.runtime.session.run(prompt),
        all: () => all.runtime.session.run(prompt),
      },
      ITERATIONS,
      2,
    );
    const a = firstRequest(searched);
    const b = firstRequest(all);
    const tools = (n: number): string => `${n} tool${n === 1 ? '' : 's'}`;
    const s = times['searched']?.medianMs ?? NaN;
    const t = times['all']?.medianMs ?? NaN;
    return [
      `tool search, ${SERVERS * TOOLS_PER_SERVER} tools over ${SERVERS} MCP servers (one-round prompt, median of ${ITERATIONS}, interleaved):`,
      `  request size:  searched ${a.tokens} tokens (${tools(a.tools)}: ${a.toolTokens} tokens) | all sent ${b.tokens} tokens (${tools(b.tools)}: ${b.toolTokens} tokens): ${(b.tokens / a.tokens).toFixed(1)}x smaller with the search`,
      `  first round:   searched ${fmt(s)} | all sent ${fmt(t)}: ${(t / s).toFixed(2)}x`,
    ];
  } finally {
    await searched.close();
    await all.close();
  }
}
