/**
 * Finds the user-only settings a workspace tries to set, so the user hears that they are ignored and
 * why. VS Code drops an application-scope value from workspace settings without a word, which would
 * leave a user whose old `.vscode/settings.json` auto-approved tools wondering, and would hide that a
 * cloned repository tried to approve its own tool calls. Reads `.vscode/settings.json` of each folder
 * and the `settings` of a `.code-workspace` file (JSON with comments, as VS Code writes them).
 */
import { readFileSync } from 'node:fs';
import { stripJsonComments } from '../../mcp/jsonc';

export interface IgnoredSetting {
  key: string;
  /** The file as the user should see it (e.g. `.vscode/settings.json`). */
  shownFile: string;
  value: unknown;
}

export interface SettingsFile {
  path: string;
  shownFile: string;
  /** A `.code-workspace` file keeps its settings under "settings". */
  kind: 'folder' | 'workspace';
}

function readSettingsObject(file: SettingsFile): Record<string, unknown> {
  let json: unknown;
  try {
    json = JSON.parse(stripJsonComments(readFileSync(file.path, 'utf8')));
  } catch {
    return {}; // Missing or unreadable: VS Code reports a broken settings file itself.
  }
  const root = file.kind === 'workspace' && json !== null && typeof json === 'object' ? (json as { settings?: unknown }).settings : json;
  return root !== null && typeof root === 'object' && !Array.isArray(root) ? (root as Record<string, unknown>) : {};
}

export function findIgnoredSettings(files: readonly SettingsFile[], keys: readonly string[]): IgnoredSetting[] {
  const found: IgnoredSetting[] = [];
  for (const file of files) {
    const settings = readSettingsObject(file);
    for (const key of keys) if (key in settings) found.push({ key, shownFile: file.shownFile, value: settings[key] });
  }
  return found;
}

/** The chat notice for what was found, or null. */
export function ignoredSettingsNotice(found: readonly IgnoredSetting[]): string | null {
  if (found.length === 0) return null;
  const items = found.map((f) => `${f.key} in ${f.shownFile} (${JSON.stringify(f.value).slice(0, 200)})`).join('; ');
  return (
    `Sprout ignores ${items}: tool auto-approval is a user setting, so a repository cannot approve its own tool calls. ` +
    'If you want it, set it in your user settings.'
  );
}
