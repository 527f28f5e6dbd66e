/**
 * Characters that hide or reorder text: the bidi controls ("Trojan Source"), zero-width spaces and
 * marks, word joiners, the byte-order mark and the invisible tag characters (ASCII smuggling). In a
 * name a server or a repository chose (a tool, a server, a hook file), they make one name look like
 * another, so the chat shows them escaped (`read_file\u200b`), as the CLI's terminal text does
 * (src/platform/terminalText.ts keeps the same set; a test checks they agree). The zero-width joiner
 * is left alone: emoji sequences need it.
 */
export const HIDDEN_CHARACTERS = /[\u200b\u200c\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u{e0000}-\u{e007f}]/gu;

/** `text` with every hidden character shown as its escape: `\u202e`, or `\u{e0041}` beyond the basic plane. */
export function showHidden(text: string): string {
  return text.replace(HIDDEN_CHARACTERS, (char) => {
    const code = char.codePointAt(0) ?? 0;
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
