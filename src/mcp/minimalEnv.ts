/**
 * The environment a stdio MCP server starts with: a short allowlist of what programs need to run
 * (PATH, HOME, locale, temp folders, Windows essentials) plus the server's configured env. Nothing
 * else passes: API keys in the parent (OPENAI_API_KEY and the like) must never reach a server.
 */
import { TAG_PREFIX } from '../platform/processTree';

const PASSED_THROUGH = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TERM',
  'TZ',
  'TMPDIR',
  'TMP',
  'TEMP',
  'SystemRoot',
  'ComSpec',
  'PATHEXT',
  'APPDATA',
  'LOCALAPPDATA',
  'USERPROFILE',
];

/** Windows env names are case-insensitive, so compare them that way there. */
function isPassedThrough(name: string, windows: boolean): boolean {
  // Process-tree tags of an enclosing Sprout (random ids, not secrets): its kill must still find us.
  if (name.startsWith('LC_') || name.startsWith(TAG_PREFIX)) return true;
  if (windows) return PASSED_THROUGH.some((allowed) => allowed.toUpperCase() === name.toUpperCase());
  return PASSED_THROUGH.includes(name);
}

export function minimalEnv(
  parentEnv: NodeJS.ProcessEnv,
  configured: Record<string, string>,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parentEnv)) {
    // Exported shell functions (`BASH_FUNC_x%%=() {...}`) are a known injection vector; never pass them.
    if (value === undefined || value.startsWith('()')) continue;
    if (isPassedThrough(name, platform === 'win32')) env[name] = value;
  }
  return { ...env, ...configured };
}
