/**
 * The list of past chats for this workspace (id, title, last update), kept next to their JSON-lines
 * transcripts under the extension's workspace storage. Written with a temp file and rename so a crash
 * never leaves a half-written index; a missing or broken index is rebuilt from the transcript files,
 * each titled by its first prompt (a transcript without one, a chat opened and never used, is not a
 * past chat). A chat is titled by its first prompt until the user renames it.
 */
import { existsSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import type { ChatFiles } from './chat';
import { ensurePrivateDir } from '../../platform/privateState';
import { removeTranscriptImages } from '../../runtime/transcriptImages';

/** One past chat as the index file keeps it. */
const chatSummarySchema = z.object({ id: z.string(), title: z.string(), updatedAt: z.number() });
export type ChatSummary = z.infer<typeof chatSummarySchema>;

const TITLE_MAX = 60;
const UNTITLED = 'New chat';
/** Titles that stand for "no prompt seen yet": the first prompt replaces them (older builds wrote the second). */
const PLACEHOLDERS = new Set([UNTITLED, 'Recovered chat']);

export function chatTitle(prompt: string): string {
  const line = prompt.trim().split('\n', 1)[0] ?? '';
  return line.length > TITLE_MAX ? `${line.slice(0, TITLE_MAX - 1)}…` : line || UNTITLED;
}

/** The first prompt of a transcript, read line by line without parsing what follows it. */
function firstPrompt(path: string): string | undefined {
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.includes('"prompt_started"')) continue;
    try {
      const record = JSON.parse(line) as { event?: { type?: string; text?: unknown } };
      if (record.event?.type === 'prompt_started' && typeof record.event.text === 'string') return record.event.text;
    } catch {
      // a torn line: look on
    }
  }
  return undefined;
}

export class ChatIndex {
  private chats: ChatSummary[];
  private readonly listeners = new Set<() => void>();

  constructor(readonly dir: string) {
    // Transcripts hold tool output and prompts: only the user may enter the folder (a too-open one is tightened, a symlink refused).
    ensurePrivateDir(dir);
    this.chats = this.read();
  }

  transcriptPath(chatId: string): string {
    return join(this.dir, `${safeId(chatId)}.jsonl`);
  }

  files(chatId: string): ChatFiles {
    return { transcript: this.transcriptPath(chatId), changes: join(this.dir, `${safeId(chatId)}.changes.json`), tools: join(this.dir, `${safeId(chatId)}.tools.json`) };
  }

  /**
   * The chat open last, kept in a file of its own: written at once, so it survives a window reload that
   * comes before VS Code has flushed its workspace state.
   */
  get lastOpen(): string | undefined {
    try {
      const id = readFileSync(join(this.dir, 'current'), 'utf8').trim();
      return id === '' ? undefined : id;
    } catch {
      return undefined;
    }
  }

  setLastOpen(chatId: string): void {
    writeFileSync(join(this.dir, 'current'), chatId, { mode: 0o600 });
  }

  /** A chat was used, renamed or removed (the chat view's title follows). */
  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
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
      if (title !== undefined && PLACEHOLDERS.has(existing.title)) existing.title = title;
    } else {
      this.chats.push({ id: chatId, title: title ?? UNTITLED, updatedAt: at });
    }
    this.write();
  }

  rename(chatId: string, title: string): void {
    const existing = this.get(chatId);
    if (!existing || title.trim() === '') return;
    existing.title = chatTitle(title);
    this.write();
  }

  /** Forgets the chat and deletes its transcript and checkpoints. */
  remove(chatId: string): void {
    this.chats = this.chats.filter((c) => c.id !== chatId);
    const files = this.files(chatId);
    rmSync(files.transcript, { force: true });
    rmSync(files.changes, { force: true });
    if (files.tools !== undefined) rmSync(files.tools, { force: true });
    removeTranscriptImages(files.transcript);
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
    const chats: ChatSummary[] = [];
    for (const file of readdirSync(this.dir).filter((f) => f.endsWith('.jsonl'))) {
      const prompt = firstPrompt(join(this.dir, file));
      if (prompt !== undefined) chats.push({ id: file.slice(0, -'.jsonl'.length), title: chatTitle(prompt), updatedAt: statSync(join(this.dir, file)).mtimeMs });
    }
    return chats;
  }

  private write(): void {
    const path = join(this.dir, 'index.json');
    writeFileSync(`${path}.tmp`, JSON.stringify(this.chats));
    renameSync(`${path}.tmp`, path);
    for (const listener of [...this.listeners]) listener();
  }
}

function safeId(chatId: string): string {
  return chatId.replace(/[^A-Za-z0-9_-]/g, '_');
}
