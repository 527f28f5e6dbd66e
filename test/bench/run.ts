/**
 * `npm run bench`: the benchmarks, each measured side by side (product vs floor,
 * interleaved) in this one run, printed as ratios. Not a test: it asserts nothing, it reports.
 */
import { bundleHookServer, tempDir } from './benchHarness';
import { runBridgeBench } from './bridgeBench';
import { runCommandHookBench } from './commandHookBench';
import { runExtensionBench } from './extensionBench';
import { runGateBench } from './gateBench';
import { runLoopBench } from './loopBench';
import { runTestsBench } from './testsBench';

async function main(): Promise<void> {
  const tmp = tempDir('sprout-bench-');
  try {
    const entry = bundleHookServer(tmp.dir);
    const started = Date.now();
    const sections = [await runGateBench(entry), await runCommandHookBench(entry), await runBridgeBench(entry), await runLoopBench(), await runExtensionBench(), await runTestsBench()];
    process.stdout.write(`\nSprout Agent benchmark (node ${process.version}, ${Math.round((Date.now() - started) / 1000)} s)\n\n`);
    for (const lines of sections) process.stdout.write(`${lines.join('\n')}\n\n`);
  } finally {
    tmp.remove();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
