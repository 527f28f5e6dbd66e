// Builds the ScriptedLmProvider fixture extension into out/scripted-lm-provider/ (its package.json and
// one bundled extension.js) and packs it as a .vsix, which the editor and e2e suites install beside
// Sprout (the web workbench loads only one development extension). It lives under out/, never in
// Sprout's own package.
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';

const root = resolve(__dirname, '..', '..', '..');
export const SCRIPTED_LM_DIR = join(root, 'out', 'scripted-lm-provider');

/** Returns the folder of the built extension. */
export async function buildScriptedLmProvider(outDir = SCRIPTED_LM_DIR): Promise<string> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  copyFileSync(join(__dirname, 'package.json'), join(outDir, 'package.json'));
  writeFileSync(join(outDir, 'README.md'), '# Scripted Language Models\n\nA test fixture of Sprout Agent. Never shipped.\n');
  writeFileSync(join(outDir, 'LICENSE'), 'Apache-2.0\n');
  await esbuild.build({
    entryPoints: [join(__dirname, 'scriptedLmProvider.ts')],
    outfile: join(outDir, 'extension.js'),
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    external: ['vscode'],
    logLevel: 'warning',
  });
  return outDir;
}

/** Builds the fixture and packs it; returns the .vsix path. */
export async function packScriptedLmProvider(): Promise<string> {
  const dir = await buildScriptedLmProvider();
  const vsix = join(root, 'out', 'scripted-lm-provider.vsix');
  const { createVSIX } = await import('@vscode/vsce');
  // vsce reports on the console as it packs; the fixture's listing is noise in a test run.
  const log = console.log;
  console.log = () => undefined;
  try {
    await createVSIX({ cwd: dir, packagePath: vsix, dependencies: false, allowMissingRepository: true, skipLicense: true });
  } finally {
    console.log = log;
  }
  return vsix;
}
