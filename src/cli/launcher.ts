/**
 * dist/cli.js, the first code of the `sprout-agent` process. It only catches SIGINT/SIGTERM and then
 * loads the real CLI (dist/cliMain.js, the SDKs and the core, which take a while to parse): a signal
 * that arrives in that window is kept and handed over, so the run still ends as interrupted (exit 130)
 * instead of the default signal death, and nothing has been started that could be left behind. A
 * Node older than the floor gets one line and exit 2 before any of that (nodeFloor.ts).
 */
import type { EarlySignals, main } from './main';
import type { main as bridgeMain } from './bridge/bridgeEntry';
import { EXIT_ERROR, EXIT_USAGE } from '../runtime/exitCodes';
import { NODE_FLOOR, meetsNodeFloor, nodeFloorMessage } from './nodeFloor';

const seen: NodeJS.Signals[] = [];
const note = (signal: NodeJS.Signals): void => void seen.push(signal);
process.on('SIGINT', note);
process.on('SIGTERM', note);

const early: EarlySignals = {
  seen,
  release: () => {
    process.off('SIGINT', note);
    process.off('SIGTERM', note);
  },
};

// A plain require: the main bundle stays a separate file, loaded only after the handlers are in place.
// main() handles its own failures (it exits with a code on every path). An agent's hook event
// (`hooks run`) loads only the light bridge client, which asks the warm hook host.
const args = process.argv.slice(2);
const hookEvent = args[0] === 'hooks' && args[1] === 'run';
if (!meetsNodeFloor(process.version, NODE_FLOOR)) {
  process.stderr.write(nodeFloorMessage(process.version, NODE_FLOOR));
  // Another agent reads a hook's exit 2 as "block" (Claude Code, Gemini CLI): a hook that cannot run fails open, as the bridge's own errors do.
  process.exitCode = hookEvent ? EXIT_ERROR : EXIT_USAGE;
} else if (hookEvent) {
  early.release();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  void (require('./hookBridge.js') as { main: typeof bridgeMain }).main(args.slice(2));
} else {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  void (require('./cliMain.js') as { main: typeof main }).main(early);
}
