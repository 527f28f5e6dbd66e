/** VS Code's JSONC as the MCP and workspace configuration files use it: comments and trailing commas. */

/** Removes `//` and `/* *\/` comments and trailing commas outside strings (VS Code's JSONC). */
export function stripJsonComments(text: string): string {
  return scanOutsideStrings(scanOutsideStrings(text, skipComment), skipTrailingComma);
}

/** Returns the index to continue from when `text[i]` starts something to drop, else undefined. */
type Skipper = (text: string, i: number) => number | undefined;

const skipComment: Skipper = (text, i) => {
  if (text[i] !== '/') return undefined;
  if (text[i + 1] === '/') {
    const end = text.indexOf('\n', i);
    return end === -1 ? text.length : end;
  }
  if (text[i + 1] === '*') {
    const end = text.indexOf('*/', i + 2);
    return end === -1 ? text.length : end + 2;
  }
  return undefined;
};

const closerAhead = /\s*[}\]]/y;
const skipTrailingComma: Skipper = (text, i) => {
  if (text[i] !== ',') return undefined;
  closerAhead.lastIndex = i + 1;
  return closerAhead.test(text) ? i + 1 : undefined;
};

function scanOutsideStrings(text: string, skip: Skipper): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    const next = skip(text, i);
    if (next === undefined) out += text[i++];
    else {
      // A block comment's line breaks stay, so a parse error's line is the file's line.
      out += text.slice(i, next).replace(/[^\n]/g, '');
      i = next;
    }
  }
  return out;
}
