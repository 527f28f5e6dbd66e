/**
 * Keeps the todo list in a file under the state directory (one per chat session, chosen by the host),
 * so killing a hung server does not wipe the model's plan. Writes go to a temp file then rename, so a
 * kill mid-write leaves the previous list rather than a torn one. Reads on every call: a restarted
 * server picks up where the last one stopped.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFileAtomic } from '../../platform/privateState';
import { z } from 'zod';
import type { TodoItem } from './todoList';

const StoredSchema = z.object({ version: z.literal(1), items: z.array(z.object({ text: z.string(), done: z.boolean() })) });

export class TodoStore {
  readonly file: string;

  constructor(stateDir: string) {
    this.file = join(stateDir, 'todo.json');
  }

  load(): TodoItem[] {
    let raw: string;
    try {
      raw = readFileSync(this.file, 'utf8');
    } catch {
      return [];
    }
    try {
      const parsed = StoredSchema.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data.items : [];
    } catch {
      return [];
    }
  }

  save(items: readonly TodoItem[]): void {
    writePrivateFileAtomic(this.file, JSON.stringify({ version: 1, items }, null, 2));
  }
}
