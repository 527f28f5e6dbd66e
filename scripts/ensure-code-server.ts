// CLI for ensureCodeServer: `node --import tsx scripts/ensure-code-server.ts` prints the install as JSON.
import { ensureCodeServer } from './ensureCodeServer';

try {
  console.log(JSON.stringify(ensureCodeServer(), null, 2));
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
}
