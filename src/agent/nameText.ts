/**
 * A name that came from outside (an MCP server's, a tool's, an allowlist entry) as a message shows it:
 * between double quotes, with every character that does not show, or shows as something else, escaped
 * as `\uXXXX` (`\u{XXXXX}` above the BMP). A zero-width space or a direction override in a server's name
 * would otherwise make an error seem to name a plain `todo`, and a terminal or a dialog cannot tell the
 * two apart. Quotes and backslashes inside are escaped too, so the quoted text is exactly the name.
 * Every message that names a server or a tool goes through here (the CLI and the extension alike).
 */

/** Controls, format characters (zero-width, bidi, BOM, tags), line and paragraph separators, unassigned and private-use code points, the fillers and variation selectors that draw nothing, spaces other than " ", and quotes and backslashes. */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\p{Cs}\u115f\u1160\u3164\uffa0]|\p{Variation_Selector}|(?! )\p{Zs}|["\\]/gu;

function escaped(char: string): string {
  if (char === '"' || char === '\\') return `\\${char}`;
  const code = char.codePointAt(0) ?? 0;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `name` with every hidden character visibly escaped (and backslashes doubled), for a list that does not quote: `todo\u200b`. */
export function visibleName(name: string): string {
  return name.replace(HIDDEN, (char) => (char === '"' ? char : escaped(char)));
}

/** `name` between double quotes, every hidden character visibly escaped: `"todo\u200b"`. */
export function quotedName(name: string): string {
  return `"${name.replace(HIDDEN, escaped)}"`;
}

/** Names as a comma-separated list, each visible (unquoted, as such lists have always been printed). */
export function visibleNames(names: readonly string[]): string {
  return names.map(visibleName).join(', ');
}
