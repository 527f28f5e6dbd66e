/**
 * StuckServer: a process shaped like a bundled server at its worst moment, for lifeline.test.ts. It
 * holds the real lifeline (src/servers/common/lifeline.ts), starts a command in its own process group
 * through the real processGroup module, says "ready" in a file, and then keeps its main thread blocked
 * for good, so only the lifeline's watcher can notice that the parent died.
 * Usage: node --import tsx stuckServer.ts <dir>   (writes <dir>/command.pid and <dir>/ready)
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { holdLifeline } from '../../../src/servers/common/lifeline';
import { startCommand } from '../../../src/servers/common/processGroup';

const dir = process.argv[2] ?? '.';
holdLifeline(() => process.exit(0));
startCommand(`echo $$ > ${JSON.stringify(join(dir, 'command.pid'))}; exec sleep 600`, dir, 600_000, () => undefined);
const poll = setInterval(() => {
  if (!existsSync(join(dir, 'command.pid'))) return;
  clearInterval(poll);
  writeFileSync(join(dir, 'ready'), String(process.pid));
  // Stuck: no event is ever handled again on this thread (blocked without burning a core).
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
}, 20);
