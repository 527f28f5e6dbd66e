/**
 * Runs inside a real VS Code extension host (as its `extensionTestsPath`, started by extensionBench.ts):
 * reports the extension's own `activate` time and the time to load and evaluate a fresh copy of the
 * dist/extension.js bundle with that host's `require` (the real `vscode` module, Node 24), as one
 * `SPROUT_BENCH {json}` line. Asserts nothing; a failure to activate fails the run.
 */
import * as vscode from 'vscode';

interface Activated {
  activationMs: number;
}

export async function run(): Promise<void> {
  const ext = vscode.extensions.getExtension<Activated>('sprout.sprout-agent');
  if (!ext) throw new Error('sprout.sprout-agent is not installed in the extension host');
  const wasActive = ext.isActive;
  const api = await ext.activate();
  const bundle = `${ext.extensionPath}/dist/extension.js`;
  const loads: number[] = [];
  for (let i = 0; i < 7; i++) {
    delete require.cache[bundle];
    const start = performance.now();
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh CommonJS load is what is measured
    require(bundle);
    loads.push(performance.now() - start);
  }
  loads.sort((a, b) => a - b);
  const result = { activationMs: api.activationMs, activatedBeforeProbe: wasActive, loadMs: loads[Math.floor(loads.length / 2)], node: process.version, vscode: vscode.version };
  console.log(`SPROUT_BENCH ${JSON.stringify(result)}`);
}
