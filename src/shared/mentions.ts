/**
 * The `#` menu's words: what a prompt can name beside its text (read by the host when the prompt is
 * sent: src/agent/contextMentions.ts). A name ending in `:` takes an argument the host completes
 * (`completeMention`, answered with `mentionItems`).
 */
export interface MentionInfo {
  /** What is put in the box, `#` included: `#problems`, `#folder:`. */
  insert: string;
  description: string;
}

export const MENTIONS: readonly MentionInfo[] = [
  { insert: '#file:', description: 'A file of the workspace' },
  { insert: '#folder:', description: "A folder's files (a listing)" },
  { insert: '#problems', description: 'The errors and warnings of the Problems view' },
  { insert: '#changes', description: "The working tree's changes (git diff)" },
  { insert: '#terminalLastCommand', description: "The active terminal's last command and its output" },
  { insert: '#symbol:', description: 'A symbol of the workspace (a function, a class), with its code' },
  { insert: '#resource:', description: "An MCP server's resource" },
];

/** The kinds whose argument the host completes. */
export const COMPLETED_MENTIONS = ['file', 'folder', 'symbol', 'resource'] as const;
export type CompletedMention = (typeof COMPLETED_MENTIONS)[number];
