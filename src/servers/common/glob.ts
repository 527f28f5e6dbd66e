/**
 * Glob patterns for file listing and search filters: `**` (any depth), `*`, `?`, `{a,b}` and `[...]`.
 * A pattern without `/` matches a file's base name at any depth (`*.ts` finds every TypeScript file),
 * which is what a model usually means. Patterns come from the model and the workspace, so they match
 * in linear time (`*a*a*a*a*b` would otherwise backtrack for ages on a long name).
 */
import { linearRegex } from './linearRegex';

function escapeChar(c: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c;
}

function translate(pattern: string): string {
  let out = '';
  let inBraces = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] ?? '';
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        const slashAfter = pattern[i + 2] === '/';
        out += slashAfter ? '(?:.*/)?' : '.*';
        i += slashAfter ? 2 : 1;
      } else out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else if (c === '{') {
      inBraces++;
      out += '(?:';
    } else if (c === '}' && inBraces > 0) {
      inBraces--;
      out += ')';
    } else if (c === ',' && inBraces > 0) out += '|';
    else if (c === '[') {
      const close = pattern.indexOf(']', i + 1);
      if (close < 0) out += '\\[';
      else {
        const body = pattern.slice(i + 1, close).replace(/^!/, '^').replace(/\\/g, '\\\\');
        out += `[${body}]`;
        i = close;
      }
    } else out += escapeChar(c);
  }
  if (inBraces > 0) throw new Error(`glob "${pattern}" has an unclosed "{"`);
  return out;
}

export type PathMatcher = (relativePath: string) => boolean;

export function globMatcher(pattern: string): PathMatcher {
  const trimmed = pattern.trim().replace(/^\.\//, '');
  if (trimmed === '') throw new Error('glob pattern is empty');
  const regex = linearRegex(`^${translate(trimmed)}$`);
  if (!trimmed.includes('/')) return (path) => regex.test(path.slice(path.lastIndexOf('/') + 1));
  return (path) => regex.test(path);
}
