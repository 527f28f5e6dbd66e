// `npm run test:editor`: builds the extension (when dist/ is stale), bundles the extension-host suite (test/editor/suite)
// into out/editor/suite, starts the fakes the suite talks to (the fake OpenAI server once it exists,
// and the FakeHookServer as a command the extension can spawn), and runs the suite in a real VS Code
// extension host (runInServer.ts). Exits with the suite's result.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { ensureCodeServer } from '../../scripts/ensureCodeServer';
import { ensureBuilt } from '../integration/cli/cliHarness';
import { startFakeOpenAi, type FakeOpenAi } from '../fakes/fakeOpenAiServer';
import { HOOK_SERVER_ENTRY, HOOK_SERVER_ENV, hookServerConfig, objectTimes } from '../fakes/hookServer';
import { packScriptedLmProvider, SCRIPTED_LM_DIR } from './lmProvider/buildScriptedLmProvider';
import { runExtensionTests, type ExtensionTestRun } from './runInServer';

const root = resolve(__dirname, '..', '..');
/** SPROUT_EDITOR_TRUST=untrusted runs test/editor/untrusted/ instead, with Workspace Trust on (Restricted Mode). */
const untrusted = process.env['SPROUT_EDITOR_TRUST'] === 'untrusted';
/** SPROUT_EDITOR_SUITE=reload runs test/editor/reload/, whose first run reloads the window once. */
const reload = process.env['SPROUT_EDITOR_SUITE'] === 'reload';
const suiteName = untrusted ? 'untrusted' : reload ? 'reload' : 'suite';
/** SPROUT_EDITOR_GREP=<text> runs only the tests whose full title contains it (mocha's grep), e.g. one suite file's describe. */
const grep = process.env['SPROUT_EDITOR_GREP'];
const suiteSrc = join(__dirname, suiteName);
const suiteOut = join(root, 'out', 'editor', suiteName);

async function compileSuite(): Promise<void> {
  rmSync(suiteOut, { recursive: true, force: true });
  // SPROUT_EDITOR_FILES=a,b runs only the suite files whose names start with one of these (while working on them).
  const only = (process.env['SPROUT_EDITOR_FILES'] ?? '').split(',').filter((f) => f !== '');
  const picked = (f: string): boolean => !f.endsWith('.test.ts') || only.length === 0 || only.some((o) => f.startsWith(o));
  const entryPoints = readdirSync(suiteSrc).filter((f) => f.endsWith('.ts') && picked(f)).map((f) => join(suiteSrc, f));
  await esbuild.build({
    entryPoints,
    outdir: suiteOut,
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    sourcemap: 'inline',
    // mocha resolves from the repo's node_modules at run time; vscode is the extension host's.
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
}

/**
 * The suite cannot script this server across processes, so it answers every chat request with a
 * short text naming the last user message: enough for a real round trip. Suites that need a scripted
 * scenario bundle test/fakes/fakeOpenAiServer.ts and start their own inside the extension host.
 */
async function startFakeModel(): Promise<FakeOpenAi> {
  const fake = await startFakeOpenAi({ models: ['fake-model', 'fake-model-large'] });
  fake.setResponder((record) => {
    const messages = (record.body as { messages?: { role: string; content?: unknown }[] }).messages ?? [];
    const lastUser = [...messages].reverse().find((m) => m.role === 'user');
    const text = typeof lastUser?.content === 'string' ? lastUser.content : '';
    return { type: 'reply', text: `Fake model reply to: ${text.slice(0, 200)}` };
  });
  return fake;
}

function hookServerCommand(): string {
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  const config = hookServerConfig({ hooks: { _Stop: objectTimes('Editor-test objection: run the tests first.', 1) } });
  // The suites' Node (this process) runs the fake: tsx is installed for it, and the extension host's Node 24 may not suit tsx's loader hooks.
  return JSON.stringify({ command: process.execPath, args: ['--import', tsx, HOOK_SERVER_ENTRY], env: { [HOOK_SERVER_ENV]: JSON.stringify(config) } });
}

/**
 * SPROUT_EDITOR_LAUNCHER picks how the extension host starts: `server` (default: the VS Code server
 * in code-server, through Chromium), `shim` (@vscode/test-electron driving runShim.sh, to prove the
 * standard path here) or `desktop` (@vscode/test-electron downloading desktop VS Code, where a
 * machine can reach its download site).
 */
async function launch(run: ExtensionTestRun & { workspace: string; env: Record<string, string> }): Promise<number> {
  const mode = process.env['SPROUT_EDITOR_LAUNCHER'] ?? 'server';
  if (mode === 'server') return runExtensionTests(run);
  if (mode !== 'shim' && mode !== 'desktop') throw new Error(`SPROUT_EDITOR_LAUNCHER=${mode}: use server, shim or desktop`);
  const { runTests } = await import('@vscode/test-electron');
  try {
    await runTests({
      ...(mode === 'shim' ? { vscodeExecutablePath: join(__dirname, 'runShim.sh') } : {}),
      // Desktop VS Code loads the fixture as a second development extension; the shim installs its .vsix.
      extensionDevelopmentPath: mode === 'desktop' ? [run.extensionDevelopmentPath, SCRIPTED_LM_DIR] : run.extensionDevelopmentPath,
      extensionTestsPath: run.extensionTestsPath,
      launchArgs: [run.workspace, '--disable-extensions'],
      extensionTestsEnv: mode === 'shim' ? { ...run.env, SPROUT_EDITOR_INSTALL_VSIX: (run.installVsix ?? []).join(delimiter) } : run.env,
    });
    return 0;
  } catch (e) {
    run.log?.(String(e));
    return 1;
  }
}

async function main(): Promise<number> {
  const install = ensureCodeServer();
  // `npm test` built dist/ already and runs this three times (trusted, untrusted, reload): build only when stale.
  await ensureBuilt();
  await compileSuite();
  // A fixture extension beside Sprout: scripted chat models behind the real vscode.lm API.
  const lmProvider = await packScriptedLmProvider();
  const model = await startFakeModel();
  const workspace = mkdtempSync(join(tmpdir(), 'sprout-editor-ws-'));
  writeFileSync(join(workspace, 'README.md'), '# editor test workspace\n');
  let summary = '';
  try {
    const env: Record<string, string> = { SPROUT_TEST_MODEL_URL: model.url, SPROUT_TEST_HOOK_SERVER: hookServerCommand(), SPROUT_TEST_WORKSPACE: workspace, ...(grep ? { SPROUT_EDITOR_GREP: grep } : {}) };
    const log = (line: string): void => {
      if (/^\d+ passed, \d+ failed$/.test(line.trim())) summary = line.trim();
      console.log(line);
    };
    const code = await launch({ install, extensionDevelopmentPath: root, installVsix: [lmProvider], extensionTestsPath: suiteOut, workspace, env, log, workspaceTrust: untrusted ? 'untrusted' : 'disabled' });
    console.log(`editor suite: exit ${code}${summary ? ` (${summary})` : ''}`);
    return code;
  } finally {
    await model.close();
    rmSync(workspace, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : e);
    process.exit(1);
  },
);
