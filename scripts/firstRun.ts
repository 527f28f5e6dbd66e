// What `npm run start` sets up for a first try, all under the user's cache folder and never inside
// the folder it serves: the sample workspace (copied once from scripts/sample-workspace, then left
// to the user), the code-server profile (settings, Secret Storage, installed extensions; private to
// the user, with VS Code's own chat turned off so Sprout's is the one chat), and the console text
// that says what to do next.
import { chmodSync, cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { sproutCacheDir } from './ensureCodeServer';

const repoRoot = resolve(__dirname, '..');
const SAMPLE_TEMPLATE = join(repoRoot, 'scripts', 'sample-workspace');

/** User settings of a new profile. Only written when the profile has no settings yet: later, the user's own choices win. */
export const PROFILE_SETTINGS: Record<string, unknown> = {
  // VS Code's built-in chat would sit next to Sprout's and compete for the same job.
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  // code-server opens an untrusted folder in Restricted Mode without asking unless told to ask; with
  // "always" the browser asks until the folder is trusted, and then remembers the answer.
  'security.workspace.trust.startupPrompt': 'always',
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
};

export interface EditorProfile {
  root: string;
  userDataDir: string;
  extensionsDir: string;
  configFile: string;
  settingsFile: string;
  /** The environment code-server runs with: it writes into $HOME and the XDG dirs, so they point here. */
  env: NodeJS.ProcessEnv;
}

/** SPROUT_EDITOR_PROFILE, else `<sproutCacheDir>/code-server-profile`. */
export function profileDir(env: NodeJS.ProcessEnv = process.env): string {
  const override = env['SPROUT_EDITOR_PROFILE'];
  return override && override.trim() !== '' ? resolve(override) : join(sproutCacheDir(env), 'code-server-profile');
}

/** The folder `npm run start` opens when given none: `<sproutCacheDir>/sample-workspace`. */
export function sampleWorkspaceDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(sproutCacheDir(env), 'sample-workspace');
}

/** Creates the profile (0700: it holds the API key) and, the first time, its settings. */
export function ensureProfile(root: string, env: NodeJS.ProcessEnv = process.env): EditorProfile {
  const profile: EditorProfile = {
    root,
    userDataDir: join(root, 'user'),
    extensionsDir: join(root, 'extensions'),
    configFile: join(root, 'config.yaml'),
    settingsFile: join(root, 'user', 'User', 'settings.json'),
    env: { ...env, HOME: root, XDG_CONFIG_HOME: join(root, 'xdg-config'), XDG_DATA_HOME: join(root, 'xdg-data') },
  };
  mkdirSync(root, { recursive: true, mode: 0o700 });
  chmodSync(root, 0o700);
  for (const dir of [join(profile.userDataDir, 'User'), profile.extensionsDir, join(root, 'xdg-config'), join(root, 'xdg-data')]) {
    mkdirSync(dir, { recursive: true });
  }
  if (!existsSync(profile.settingsFile)) writeFileSync(profile.settingsFile, `${JSON.stringify(PROFILE_SETTINGS, null, 2)}\n`);
  return profile;
}

/** Copies the sample project into `dir` unless something is there already (it is the user's to change). */
export function ensureSampleWorkspace(dir: string): { dir: string; created: boolean } {
  if (existsSync(dir)) return { dir, created: false };
  mkdirSync(dir, { recursive: true });
  cpSync(SAMPLE_TEMPLATE, dir, { recursive: true });
  return { dir, created: true };
}

/** `~/...` for paths under the home folder, so the console text stays short. */
export function tildify(path: string): string {
  const home = homedir();
  return path === home || path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

export interface NextStepsInput {
  url: string;
  folder: string;
  isSample: boolean;
  profile: string;
}

/** What the console says once the editor answers. */
export function nextSteps(input: NextStepsInput): string {
  const lines = [
    '',
    `Sprout Agent is running in code-server: ${input.url}`,
    '',
    'Next:',
    '  1. Open that URL in a browser. It asks whether you trust the folder\'s authors: answer',
    `     "Yes, I trust the authors" (${input.isSample ? 'it is the sample workspace made for you' : 'if you do'}); the browser remembers it.`,
    '     (In Restricted Mode Sprout runs too, without workspace-defined servers or the test-runner hook.)',
    '  2. Click the Sprout icon in the activity bar.',
    '  3. Connect a model: run "Sprout: Set API Key" (OpenAI), or set sprout.model.baseUrl to a local',
    '     OpenAI-compatible server (Ollama: http://127.0.0.1:11434/v1), then run "Sprout: Select Model".',
  ];
  if (input.isSample) lines.push('  4. Ask Sprout: "Make the failing test pass." (README.md in the sample says more.)');
  lines.push(
    '',
    `Folder:  ${tildify(input.folder)}${input.isSample ? ' (another one: npm run start -- /path/to/folder)' : ''}`,
    `Profile: ${tildify(input.profile)} (settings and the API key survive restarts)`,
    'Stop:    Ctrl+C',
    '',
  );
  return lines.join('\n');
}
