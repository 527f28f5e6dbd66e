/**
 * Keeps the todo lists in files under the state directory, so killing a hung server does not wipe the
 * model's plan: one list per session (`sessions/<sha256 of the session>.json`: the id is untrusted
 * input, so it never names the file itself), a subagent's apart from its chat's, and the shared
 * `todo.json` of clients that name no session (an older Sprout, a bare MCP client, another agent's
 * own calls). Writes go to a temp file then rename, so a kill mid-write leaves the previous list
 * rather than a torn one. Reads on every call: a restarted server picks up where the last one stopped.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { SessionOfRequest } from '../../agent/sessionMeta';
import { writePrivateFileAtomic } from '../../platform/privateState';
import type { TodoItem } from './todoList';

// `sessionless`: the shared list as a client naming no session wrote it (absent in a list an older version wrote).
const StoredSchema = z.object({ version: z.literal(1), items: z.array(z.object({ text: z.string(), done: z.boolean() })), sessionless: z.literal(true).optional() });
type Stored = z.infer<typeof StoredSchema>;

function read(file: string): Stored | undefined {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = StoredSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The file of `session`'s list under `stateDir` (the shared one without a session). */
export function todoFile(stateDir: string, session?: SessionOfRequest): string {
  if (session === undefined) return join(stateDir, 'todo.json');
  const key = createHash('sha256').update(JSON.stringify([session.sessionId, session.agentId ?? null])).digest('hex');
  return join(stateDir, 'sessions', `${key}.json`);
}

export class TodoStore {
  readonly file: string;
  private readonly sharedFile: string | undefined;

  /** The list of `session`, or the shared list when it is undefined. */
  constructor(stateDir: string, private readonly session?: SessionOfRequest) {
    this.file = todoFile(stateDir, session);
    this.sharedFile = session === undefined ? undefined : todoFile(stateDir);
  }

  load(): TodoItem[] {
    return read(this.file)?.items ?? [];
  }

  /**
   * What a hook holds the session to: its own list, or, while it has none, the shared list a client
   * naming no session wrote (another agent calls the tool without Sprout's `_meta` while the hook
   * bridge asks the hooks with its session). A shared list an older version wrote is no session's.
   */
  loadForHook(): TodoItem[] {
    const own = read(this.file);
    if (own !== undefined || this.sharedFile === undefined) return own?.items ?? [];
    const shared = read(this.sharedFile);
    return shared?.sessionless === true ? shared.items : [];
  }

  save(items: readonly TodoItem[]): void {
    const stored: Stored = { version: 1, items: [...items], ...(this.session === undefined ? { sessionless: true as const } : {}) };
    writePrivateFileAtomic(this.file, JSON.stringify(stored, null, 2));
  }
}
