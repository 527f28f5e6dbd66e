/**
 * The protected-path rule: which workspace files no tool may create, change or replace without the
 * user's approval of that one write. These files configure the editor, git, CI or other agents, and a
 * write to them can make those tools run code (`core.fsmonitor` in `.git/config`, a task, a workflow,
 * an auto-approval in `.vscode/settings.json`). Pure and shared by every party that decides: the
 * workspace server refuses unapproved writes, the extension asks with a warning, the CLI refuses unless
 * `--allow-protected-writes`. Callers pass the real path (symlinks resolved) relative to the root.
 *
 * Matching is deliberately generous, because a false "protected" costs one extra question while a
 * miss costs code execution: case-insensitive (macOS and Windows file systems), trailing dots, spaces
 * and NTFS stream suffixes ignored, a pattern without a leading `/` matches at any depth (a nested
 * repository's `.git` is as dangerous as the root's), and `dir/**` also covers `dir` itself (a `.git`
 * file can point git at another directory).
 */
import { agentConfigPatterns } from '../../agent/agentConfigFiles';
import { globMatcher, type PathMatcher } from './glob';

export const DEFAULT_PROTECTED_PATTERNS: readonly string[] = [
  '.vscode/**',
  '.git/**',
  '.github/workflows/**',
  '.devcontainer/**',
  '*.code-workspace',
  '.sprout/**',
  // Every coding agent's configuration folder, from the table its hook formats are read from.
  ...agentConfigPatterns(),
  // What the agent is told (docs: README.md#instructions): a write to one rewrites the agent's own instructions.
  'AGENTS.md',
  'AGENTS.override.md',
  'CLAUDE.md',
  'CLAUDE.local.md',
  'GEMINI.md',
  '.github/copilot-instructions.md',
  '.github/instructions/**',
  // Prompt files become slash commands (docs: README.md#prompt-files-and-slash-commands); .claude/** is protected above.
  '.github/prompts/**',
  '.clinerules',
  '.clinerules/**',
  '.cline/rules/**',
  '.cursorrules',
  // Agent Skills (docs: README.md#skills): a SKILL.md folder tells the model what to do (`.claude/skills` is under `.claude/**`).
  '.github/skills/**',
  '.agents/skills/**',
  // Custom agents (docs: README.md#custom-agents): a write to one rewrites an agent's instructions and tools (`.claude/agents` is under `.claude/**`).
  '.github/agents/**',
  '.github/chatmodes/**',
];

export class ProtectedPatternError extends Error {
  constructor(
    readonly pattern: string,
    why: string,
  ) {
    super(`protected path pattern "${pattern}" ${why}`);
    this.name = 'ProtectedPatternError';
  }
}

export interface ProtectedMatch {
  /** The pattern that matched, as configured. */
  pattern: string;
}

export interface ProtectedRule {
  /** Every pattern in force: the defaults, then the added ones. */
  readonly patterns: readonly string[];
  /** The first matching pattern for a root-relative real path (forward slashes), or undefined. */
  match(relativePath: string): ProtectedMatch | undefined;
}

/** One path segment as a case-insensitive, Windows-forgiving file system would see it. */
function normalizeSegment(segment: string): string {
  const stream = segment.indexOf(':');
  const name = stream > 0 ? segment.slice(0, stream) : segment;
  return name.replace(/[. ]+$/, '').toLowerCase() || name.toLowerCase();
}

function normalizePath(relativePath: string): string[] {
  return relativePath
    .split(/[\\/]+/)
    .filter((s) => s !== '' && s !== '.')
    .map(normalizeSegment);
}

interface CompiledPattern {
  source: string;
  anchored: boolean;
  matchers: PathMatcher[];
}

/** Checks one added pattern: additions only (no `!`), relative, no `..`, a valid glob. Returns it trimmed. */
export function validateProtectedPattern(raw: string): string {
  const pattern = raw.trim();
  if (pattern === '') throw new ProtectedPatternError(raw, 'is empty');
  if (pattern.startsWith('!')) throw new ProtectedPatternError(raw, 'starts with "!": patterns can only add protection, never remove it');
  if (pattern.split(/[\\/]/).includes('..')) throw new ProtectedPatternError(raw, 'contains "..": patterns are relative to the workspace root');
  compile(pattern);
  return pattern;
}

function compile(source: string): CompiledPattern {
  const anchored = source.startsWith('/');
  const body = source.replace(/^\/+/, '').replace(/^\.\//, '').toLowerCase();
  // globMatcher matches a slash-free pattern against base names; anchored, it must match the whole path.
  const whole = (glob: string): PathMatcher => {
    const m = globMatcher(glob);
    return anchored && !glob.includes('/') ? (path) => !path.includes('/') && m(path) : m;
  };
  try {
    const matchers = [whole(body)];
    // `dir/**` protects the entry `dir` itself too.
    if (body.endsWith('/**') && body.length > 3) matchers.push(whole(body.slice(0, -3)));
    return { source, anchored, matchers };
  } catch (error) {
    throw new ProtectedPatternError(source, `is not a valid glob: ${(error as Error).message}`);
  }
}

function matchesAnywhere(pattern: CompiledPattern, segments: readonly string[]): boolean {
  const starts = pattern.anchored ? [0] : segments.map((_, i) => i);
  for (const start of starts) {
    const candidate = segments.slice(start).join('/');
    if (pattern.matchers.some((m) => m(candidate))) return true;
  }
  return false;
}

/** The rule in force: the defaults plus `added` (validated; a bad one throws ProtectedPatternError). */
export function protectedRule(added: readonly string[] = []): ProtectedRule {
  const extra = added.map(validateProtectedPattern);
  const patterns = [...new Set([...DEFAULT_PROTECTED_PATTERNS, ...extra])];
  const compiled = patterns.map(compile);
  return {
    patterns,
    match(relativePath) {
      const segments = normalizePath(relativePath);
      if (segments.length === 0) return undefined;
      const hit = compiled.find((p) => matchesAnywhere(p, segments));
      return hit ? { pattern: hit.source } : undefined;
    },
  };
}

/** The request `_meta` key by which a host marks one write to a protected path as approved by the user. */
export const PROTECTED_WRITE_META = 'sprout/protectedWrite';

/** The `_meta` a host sends with a write the user approved: the exact root-relative real path. */
export function protectedWriteMeta(path: string): Record<string, unknown> {
  return { [PROTECTED_WRITE_META]: { path } };
}

/** The path a request's `_meta` approves, if any. */
export function approvedProtectedPath(meta: Record<string, unknown> | undefined): string | undefined {
  const entry = meta?.[PROTECTED_WRITE_META];
  if (entry === null || typeof entry !== 'object') return undefined;
  const path = (entry as { path?: unknown }).path;
  return typeof path === 'string' ? path : undefined;
}

/** What the model (and a CLI user) reads when a protected write is refused. */
export function protectedRefusal(shown: string, match: ProtectedMatch): string {
  return (
    `refused: ${shown} is a protected path (it matches "${match.pattern}"). Protected files configure the editor, git, CI or ` +
    'other agents and can make them run code, so every write to one needs the user\'s approval of that write: in VS Code the ' +
    'user is asked; the CLI allows it only with --allow-protected-writes. Do not try to reach the file another way; ask the user.'
  );
}
