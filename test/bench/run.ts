/**
 * `npm run bench`: the benchmarks, each measured side by side (product vs floor,
 * interleaved) in this one run, printed as ratios. Not a test: it asserts nothing, it reports.
 */
import { bundleHookServer, tempDir } from './benchHarness';
import { runBridgeBench } from './bridgeBench';
import { runCommandHookBench } from './commandHookBench';
import { runEraBench } from './eraBench';
import { runExtensionBench } from './extensionBench';
import { runGateBench } from './gateBench';
import { runInstructionsBench } from './instructionsBench';
import { runLoopBench } from './loopBench';
import { runTestsBench } from './testsBench';
import { runToolSearchBench } from './toolSearchBench';

/** `npm run bench -- bridge tests` runs only the sections named; each is printed as soon as it is measured. */
async function main(): Promise<void> {
  const tmp = tempDir('sprout-bench-');
  try {
    const entry = bundleHookServer(tmp.dir);
    const started = Date.now();
    const all: Record<string, () => Promise<string[]>> = {
      gate: () => runGateBench(entry),
      commandHook: () => runCommandHookBench(entry),
      bridge: () => runBridgeBench(entry),
      eras: () => runEraBench(),
      loop: () => runLoopBench(),
      extension: () => runExtensionBench(),
      tests: () => runTestsBench(),
      instructions: () => runInstructionsBench(),
      toolSearch: () => runToolSearchBench(),
    };
    const asked = process.argv.slice(2);
    const unknown = asked.filter((name) => !(name in all));
    if (unknown.length > 0) throw new Error(`no bench section ${unknown.join(', ')}; the sections: ${Object.keys(all).join(', ')}`);
    process.stdout.write(`\nSprout Agent benchmark (node ${process.version})\n\n`);
    for (const [name, run] of Object.entries(all)) if (asked.length === 0 || asked.includes(name)) process.stdout.write(`${(await run()).join('\n')}\n\n`);
    process.stdout.write(`(${Math.round((Date.now() - started) / 1000)} s)\n`);
  } finally {
    tmp.remove();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
