/**
 * The list of past chats for this workspace (id, title, last update), kept next to their JSON-lines
 * transcripts under the extension's workspace storage. Written with a temp file and rename so a crash
 * never leaves a half-written index; a missing or broken index is rebuilt from the transcript files.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { chatSummarySchema, type ChatSummary } from '../../shared/protocol';

const TITLE_MAX = 60;

export function chatTitle(prompt: string): string {
  const line = prompt.trim().split('\n', 1)[0] ?? '';
  return line.length > TITLE_MAX ? `${line.slice(0, TITLE_MAX - 1)}…` : line || 'New chat';
}

export class ChatIndex {
  private chats: ChatSummary[];

  constructor(readonly dir: string) {
    // Transcripts hold tool output and prompts: only the user may enter the folder.
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.chats = this.read();
  }

  transcriptPath(chatId: string): string {
    return join(this.dir, `${chatId.replace(/[^A-Za-z0-9_-]/g, '_')}.jsonl`);
  }

  list(): ChatSummary[] {
    return [...this.chats].sort((a, b) => b.updatedAt - a.updatedAt);
  }

  get(chatId: string): ChatSummary | undefined {
    return this.chats.find((c) => c.id === chatId);
  }

  touch(chatId: string, title: string | undefined, at: number): void {
    const existing = this.get(chatId);
    if (existing) {
      existing.updatedAt = at;
      if (title !== undefined && existing.title === 'New chat') existing.title = title;
    } else {
      this.chats.push({ id: chatId, title: title ?? 'New chat', updatedAt: at });
    }
    this.write();
  }

  private read(): ChatSummary[] {
    const path = join(this.dir, 'index.json');
    try {
      const parsed = z.array(chatSummarySchema).safeParse(JSON.parse(readFileSync(path, 'utf8')));
      if (parsed.success) return parsed.data;
    } catch {
      // fall through: rebuild from the transcripts below
    }
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir)
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => ({ id: f.slice(0, -'.jsonl'.length), title: 'Recovered chat', updatedAt: statSync(join(this.dir, f)).mtimeMs }));
  }

  private write(): void {
    const path = join(this.dir, 'index.json');
    writeFileSync(`${path}.tmp`, JSON.stringify(this.chats));
    renameSync(`${path}.tmp`, path);
  }
}
