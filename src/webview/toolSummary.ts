/**
 * A tool call in one line for its card: a readable title from the tool's name (`workspace__write_file`
 * -> "Write file") and the argument that says what it is about (the path for file tools, the command
 * for `run_command`, else the first short text argument). Arguments are model text: shown as text only.
 * Names come from servers: a hidden character in one is shown escaped (src/shared/visibleText.ts).
 */
import { showHidden } from '../shared/visibleText';

const PRIMARY_ARGS = ['path', 'file', 'command', 'pattern', 'query', 'url', 'name', 'text'];

export function toolTitle(qualifiedName: string): string {
  const bare = qualifiedName.includes('__') ? qualifiedName.slice(qualifiedName.indexOf('__') + 2) : qualifiedName;
  const words = bare.replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').trim().toLowerCase();
  return showHidden(words === '' ? qualifiedName : words[0]!.toUpperCase() + words.slice(1));
}

export function toolServer(qualifiedName: string): string {
  return showHidden(qualifiedName.includes('__') ? qualifiedName.slice(0, qualifiedName.indexOf('__')) : '');
}

function parse(args: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(args);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The one argument worth showing on the card's line ('' when there is none). */
export function toolSummary(args: string): string {
  const parsed = parse(args);
  if (!parsed) return '';
  const key = PRIMARY_ARGS.find((k) => typeof parsed[k] === 'string') ?? Object.keys(parsed).find((k) => typeof parsed[k] === 'string' && (parsed[k] as string).length <= 200);
  const value = key === undefined ? '' : (parsed[key] as string);
  const line = value.split('\n', 1)[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

/** The arguments as indented JSON for the expanded card (the raw text when it is not JSON). */
export function prettyArgs(args: string): string {
  const parsed = parse(args);
  return parsed ? JSON.stringify(parsed, null, 2) : args;
}
