/**
 * A streamed tool call's arguments made one JSON value when a proxy sent the same value more than
 * once: some relays stream the fragments and then restate the whole arguments (OpenCodex), or join
 * the same arguments several times over (codex-lb), so the fragments add up to `{...}{...}`. Equal
 * copies become one; different values, or anything that is not a run of whole JSON objects, stay as
 * they came (the tool then answers that the arguments are not valid JSON). Pure.
 */

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Whether the text is one whole JSON value (an empty text is not). */
export function isWholeJson(text: string): boolean {
  return text.trim() !== '' && parses(text);
}

/** The top-level `{...}` objects of a text that is only such objects (and white space), or undefined. */
function topLevelObjects(text: string): string[] | undefined {
  const objects: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (depth === 0 && ch !== '{') {
      if (/\s/.test(ch ?? '')) continue;
      return undefined;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') {
      if (depth === 0) start = i;
      depth++;
    } else if (ch === '}') {
      depth--;
      if (depth === 0) objects.push(text.slice(start, i + 1));
    }
  }
  return depth === 0 ? objects : undefined;
}

/** The arguments, with a run of equal JSON objects taken as one copy. */
export function oneCopyOfArguments(args: string): string {
  if (args.trim() === '' || parses(args)) return args;
  const objects = topLevelObjects(args);
  if (objects === undefined || objects.length < 2 || !objects.every(parses)) return args;
  const first = JSON.stringify(JSON.parse(objects[0] as string));
  return objects.every((o) => JSON.stringify(JSON.parse(o)) === first) ? (objects[0] as string) : args;
}
