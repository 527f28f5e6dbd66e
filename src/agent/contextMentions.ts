/**
 * The context a prompt names with `#` (beside `#file:`): `#folder:path`, `#problems`, `#changes`,
 * `#terminalLastCommand`, `#symbol:name` and `#resource:server:uri`. Which mentions a prompt makes and
 * how their text is worded and capped is decided here, the same for every host; the host reads the
 * editor (diagnostics, git, a terminal, symbols, a server's resource) and gives the data. Each becomes
 * a PromptAttachment, fenced like a file (promptAttachments.ts): untrusted text, never instructions.
 */

export type Mention =
  | { kind: 'folder'; path: string }
  | { kind: 'problems' }
  | { kind: 'changes' }
  | { kind: 'terminalLastCommand' }
  | { kind: 'symbol'; name: string }
  | { kind: 'resource'; server: string; uri: string };

/** Each mention's text is cut here, with a note saying so. */
export const MENTION_MAX_CHARS = 50_000;
/** At most this many problems, and this many files of a folder, are listed. */
export const MAX_PROBLEMS = 200;
export const MAX_FOLDER_ENTRIES = 500;

const MENTION = /(?:^|\s)#(folder:(\S+)|problems\b|changes\b|terminalLastCommand\b|symbol:(\S+)|resource:([^\s:]+):(\S+))/g;

/** The mentions of a prompt in order, each once (`#file:` is read by the host's file attachments). */
export function parseMentions(prompt: string): Mention[] {
  const found = new Map<string, Mention>();
  for (const m of prompt.matchAll(MENTION)) {
    // Sentence punctuation after a mention is not part of it ("see #folder:src, then").
    const [whole = '', folder, symbol, server, uri] = m.slice(1).map((part) => part?.replace(/[.,;!?]+$/, ''));
    const mention: Mention =
      folder !== undefined
        ? { kind: 'folder', path: folder.replace(/\/+$/, '') || '.' }
        : symbol !== undefined
          ? { kind: 'symbol', name: symbol }
          : server !== undefined && uri !== undefined
            ? { kind: 'resource', server, uri }
            : { kind: whole as 'problems' | 'changes' | 'terminalLastCommand' };
    found.set(mentionLabel(mention), mention);
  }
  return [...found.values()];
}

/** The resources a prompt mentions (`#resource:server:uri`), to watch for changes (resourceWatch.ts). */
export function mentionedResources(prompt: string): { server: string; uri: string }[] {
  return parseMentions(prompt).flatMap((m) => (m.kind === 'resource' ? [{ server: m.server, uri: m.uri }] : []));
}

/** What the user and the model see as the attachment's label. */
export function mentionLabel(m: Mention): string {
  switch (m.kind) {
    case 'folder':
      return `#folder:${m.path}`;
    case 'symbol':
      return `#symbol:${m.name}`;
    case 'resource':
      return `#resource:${m.server}:${m.uri}`;
    default:
      return `#${m.kind}`;
  }
}

/** `text` cut at `max` characters (never inside a surrogate pair), with a note saying what was cut. */
export function capText(text: string, max = MENTION_MAX_CHARS): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}\n[… cut at ${end} of ${text.length} characters]`;
}

export interface Problem {
  /** Relative to the workspace folder. */
  file: string;
  /** 1-based. */
  line: number;
  severity: 'error' | 'warning' | 'info' | 'hint';
  source?: string;
  message: string;
}

const SEVERITY_ORDER = ['error', 'warning', 'info', 'hint'];

/** One line per problem, `file:line severity [source] message`, errors first, capped with a count. */
export function problemsText(problems: readonly Problem[], max = MAX_PROBLEMS): string {
  if (problems.length === 0) return 'No problems: the editor reports no errors or warnings in the workspace.';
  const sorted = [...problems].sort((a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity) || a.file.localeCompare(b.file) || a.line - b.line);
  const lines = sorted.slice(0, max).map((p) => `${p.file}:${p.line} ${p.severity}${p.source ? ` [${p.source}]` : ''} ${p.message.replace(/\s+/g, ' ').trim()}`);
  const counts = SEVERITY_ORDER.map((s) => [s, problems.filter((p) => p.severity === s).length] as const).filter(([, n]) => n > 0);
  const head = `${problems.length} problem${problems.length === 1 ? '' : 's'} (${counts.map(([s, n]) => `${n} ${s}`).join(', ')}):`;
  const more = problems.length > max ? [`[… ${problems.length - max} more problems not listed]`] : [];
  return [head, ...lines, ...more].join('\n');
}

/** A folder's files (relative paths, sorted), capped with a note. `truncated`: the host stopped looking at `max`. */
export function folderText(folder: string, files: readonly string[], truncated: boolean, max = MAX_FOLDER_ENTRIES): string {
  if (files.length === 0) return `Folder ${folder}: no files (or none outside the excluded folders).`;
  const shown = [...files].sort().slice(0, max);
  const more = truncated || files.length > max ? [`[… listing cut at ${max} files]`] : [];
  return [`Folder ${folder}, ${shown.length}${more.length > 0 ? '+' : ''} files:`, ...shown, ...more].join('\n');
}

/** The working tree's diff, or what stands in for it. */
export function changesText(changes: { staged: string; unstaged: string; untracked: readonly string[] } | { none: string }): string {
  if ('none' in changes) return changes.none;
  const parts: string[] = [];
  if (changes.staged.trim() !== '') parts.push(`Staged changes:\n${changes.staged}`);
  if (changes.unstaged.trim() !== '') parts.push(`Unstaged changes:\n${changes.unstaged}`);
  if (changes.untracked.length > 0) parts.push(`Untracked files:\n${changes.untracked.join('\n')}`);
  return parts.length === 0 ? 'No changes: the working tree matches HEAD.' : capText(parts.join('\n\n'));
}
