/**
 * Bench: the VS Code extension. Bundle sizes of the extension and the chat webview, as `npm run build`
 * makes them and as `--production` (what `npm run package` ships) makes them, raw and gzipped;
 * activation measured in a real extension host (the VS Code server from code-server, as the editor
 * suite runs it; activationProbe.ts reports from inside); the Problems `_Stop` once diagnostics are
 * settled (problemsProbe.ts, with VS Code's TypeScript server; target under 100 ms); then the webview
 * bench (webviewBench.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { ensureCodeServer } from '../../scripts/ensureCodeServer';
import { runExtensionTests } from '../editor/runInServer';
import { runWebviewBench } from './webviewBench';

const root = resolve(__dirname, '..', '..');
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KB`;

/** The same options esbuild.mjs uses for these two bundles, built in memory. */
async function bundle(entry: string, browser: boolean, production: boolean): Promise<Uint8Array> {
  const result = await esbuild.build({
    entryPoints: [join(root, entry)],
    bundle: true,
    write: false,
    minify: production,
    legalComments: 'none',
    logLevel: 'error',
    ...(browser ? { platform: 'browser', target: 'es2022', format: 'iife' } : { platform: 'node', target: 'node22', format: 'cjs', external: ['vscode'] }),
  });
  const out = result.outputFiles[0];
  if (!out) throw new Error(`esbuild produced nothing for ${entry}`);
  return out.contents;
}

async function bundleSizes(): Promise<string[]> {
  const lines = ['bundle sizes (development = npm run build, production = --production as npm run package ships; gzip is about what the .vsix stores):'];
  for (const [name, entry, browser] of [['dist/extension.js', 'src/extension/extension.ts', false], ['dist/webview.js', 'src/webview/main.ts', true]] as const) {
    const dev = await bundle(entry, browser, false);
    const prod = await bundle(entry, browser, true);
    const onDisk = statSync(join(root, name)).size;
    lines.push(`  ${name.padEnd(18)} development ${kb(dev.length)} (on disk ${kb(onDisk)}), production ${kb(prod.length)}, gzipped ${kb(gzipSync(prod).length)}`);
  }
  return lines;
}

interface ProbeResult {
  activationMs: number;
  activatedBeforeProbe: boolean;
  loadMs: number;
  node: string;
  vscode: string;
}

async function activation(): Promise<string[]> {
  const workspace = mkdtempSync(join(tmpdir(), 'sprout-activation-ws-'));
  try {
    // The probe must live under the extension's folder: the host hands `vscode` only to code inside an extension.
    const probeDir = join(root, 'out', 'bench');
    await esbuild.build({ entryPoints: [join(__dirname, 'activationProbe.ts')], outdir: probeDir, bundle: true, platform: 'node', target: 'node22', format: 'cjs', external: ['vscode'], logLevel: 'error' });
    writeFileSync(join(workspace, 'README.md'), '# activation bench\n');
    let result: ProbeResult | undefined;
    const code = await runExtensionTests({
      install: ensureCodeServer(),
      extensionDevelopmentPath: root,
      extensionTestsPath: join(probeDir, 'activationProbe.js'),
      workspace,
      silenceMs: 120_000,
      log: (line) => {
        const match = /SPROUT_BENCH (\{.*\})/.exec(line);
        if (match?.[1]) result = JSON.parse(match[1]) as ProbeResult;
      },
    });
    if (code !== 0 || !result) return [`activation: the extension host run failed (exit ${code})`];
    return [
      `activation in a real extension host (VS Code ${result.vscode} server, Node ${result.node}, development bundle):`,
      `  activate() ${result.activationMs.toFixed(1)} ms${result.activatedBeforeProbe ? ' (on startup)' : ''}; loading dist/extension.js ${result.loadMs.toFixed(1)} ms (median of 7 fresh requires in that host)`,
    ];
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

interface ProblemsResult {
  firstMs: number;
  medianMs: number;
  maxMs: number;
  calls: number;
}

/** The Problems `_Stop` with settled diagnostics, timed inside the host (problemsProbe.ts). */
export async function problemsStop(): Promise<string[]> {
  const workspace = mkdtempSync(join(tmpdir(), 'sprout-problems-ws-'));
  try {
    const probeDir = join(root, 'out', 'bench');
    await esbuild.build({ entryPoints: [join(__dirname, 'problemsProbe.ts')], outdir: probeDir, bundle: true, platform: 'node', target: 'node22', format: 'cjs', external: ['vscode'], logLevel: 'error' });
    mkdirSync(join(workspace, 'src'));
    writeFileSync(join(workspace, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'commonjs', noEmit: true }, include: ['src'] }));
    writeFileSync(join(workspace, 'src', 'count.ts'), 'export function count(items: string[]): number {\n  return items.length;\n}\n');
    let result: ProblemsResult | undefined;
    const code = await runExtensionTests({
      install: ensureCodeServer(),
      extensionDevelopmentPath: root,
      extensionTestsPath: join(probeDir, 'problemsProbe.js'),
      workspace,
      silenceMs: 300_000,
      log: (line) => {
        const match = /SPROUT_BENCH_PROBLEMS (\{.*\})/.exec(line);
        if (match?.[1]) result = JSON.parse(match[1]) as ProblemsResult;
      },
    });
    if (code !== 0 || !result) return [`Problems _Stop: the extension host run failed (exit ${code})`];
    const verdict = result.medianMs < 100 ? 'within' : 'OVER';
    return [
      'the Problems _Stop (the editor server, VS Code\'s TypeScript server, a new type error in a changed file):',
      `  settled diagnostics: median ${result.medianMs.toFixed(1)} ms, max ${result.maxMs.toFixed(1)} ms over ${result.calls} calls (target under 100 ms: ${verdict}); the first call, which waits for the report to go quiet, ${result.firstMs.toFixed(1)} ms`,
    ];
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

export async function runExtensionBench(): Promise<string[]> {
  return [...(await bundleSizes()), '', ...(await activation()), '', ...(await problemsStop()), '', ...(await runWebviewBench())];
}

if (require.main === module) {
  runExtensionBench().then(
    (lines) => console.log(lines.join('\n')),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
