/**
 * One instruction file's header, per format: Copilot's `applyTo`, Cursor's `globs` and `alwaysApply`,
 * Claude Code's rules' and Cline's `paths` (https://docs.cline.bot/features/cline-rules/conditional-rules).
 * Cursor writes `globs: **\/*.tsx, src/**` unquoted, which is not valid YAML (a `*` starts an alias):
 * frontMatter.ts reads such values as text for every format; a Cursor header YAML still refuses is
 * read line by line, as Cursor itself reads it, `key: value`.
 * A file whose header cannot be read is a note naming the line; it still applies when its scope does
 * not depend on the header (an AGENTS.md), and not when it does (a rule whose globs are unknown).
 */
import { FrontMatterError, commaList, listField, readFrontMatter } from './frontMatter';
import type { FoundFile } from './instructionWalk';

export interface ParsedRule {
  body: string;
  globs?: string[];
  alwaysApply?: boolean;
  globsLine?: number;
  /** False when the file's scope cannot be known (its header is broken): it is not applied. */
  usable: boolean;
  note?: string;
}

/** Cursor's header read line by line: `key: value`, the value unquoted. */
function cursorLines(text: string): { fields: Record<string, string>; lines: Record<string, number>; body: string } | undefined {
  const lines = text.split(/\r?\n/);
  if (lines[0]?.replace(/^\uFEFF/, '').trim() !== '---') return undefined;
  const close = lines.findIndex((line, i) => i > 0 && line.trim() === '---');
  if (close < 0) return undefined;
  const fields: Record<string, string> = {};
  const at: Record<string, number> = {};
  for (let i = 1; i < close; i++) {
    const match = /^([A-Za-z][\w-]*):\s*(.*)$/.exec(lines[i] ?? '');
    if (match === null) continue;
    fields[match[1] ?? ''] = (match[2] ?? '').trim().replace(/^(['"])(.*)\1$/, '$2');
    at[match[1] ?? ''] = i + 1;
  }
  return { fields, lines: at, body: lines.slice(close + 1).join('\n') };
}

function lineOfField(text: string, field: string): number | undefined {
  const index = text.split(/\r?\n/).findIndex((line) => line.startsWith(`${field}:`));
  return index < 0 ? undefined : index + 1;
}

function scoped(file: FoundFile, text: string): ParsedRule {
  const field = file.format === 'cursor' ? 'globs' : file.format === 'copilot-scoped' ? 'applyTo' : 'paths';
  try {
    const header = readFrontMatter(text);
    const globs = listField(header.fields, field);
    const always = header.fields.alwaysApply;
    return {
      body: header.body,
      usable: true,
      ...(globs === undefined ? {} : { globs, globsLine: lineOfField(text, field) }),
      ...(file.format === 'cursor' && typeof always === 'boolean' ? { alwaysApply: always } : {}),
    };
  } catch (error) {
    if (!(error instanceof FrontMatterError)) throw error;
    const lines = file.format === 'cursor' ? cursorLines(text) : undefined;
    if (lines !== undefined) {
      const globs = commaList(lines.fields.globs ?? '');
      return { body: lines.body, usable: true, globs, alwaysApply: lines.fields.alwaysApply === 'true', ...(lines.lines.globs === undefined ? {} : { globsLine: lines.lines.globs }) };
    }
    return { body: error.body, usable: false, note: `${file.shown} line ${error.line}: ${error.message}; the file is not applied until it is fixed.` };
  }
}

/** Reads `text` as `file`'s format. */
export function parseRule(file: FoundFile, text: string): ParsedRule {
  if (file.format === 'copilot-scoped' || (file.format === 'cursor' && file.shown.endsWith('.mdc'))) return scoped(file, text);
  // Rules a `paths` header scopes; without one they apply everywhere (a `.clinerules` file with no header, a Claude rule).
  if (file.format === 'claude-rule' || (file.format === 'cline' && /^\uFEFF?---\r?\n/.test(text))) return scoped(file, text);
  // AGENTS.md, CLAUDE.md and the like have no header of their own; one that is there is left out of the text.
  try {
    return { body: readFrontMatter(text).body, usable: true };
  } catch (error) {
    if (!(error instanceof FrontMatterError)) throw error;
    return { body: text, usable: true, note: `${file.shown} line ${error.line}: ${error.message}; the whole file is used as text.` };
  }
}
