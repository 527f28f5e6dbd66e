/**
 * The test runners the tests server's suites run for real but the project itself does not use
 * (ava, node-tap, tape, uvu, jasmine, Playwright Test, bun, deno, pnpm), from the npm registry at the
 * versions test/fixtures/toolbox locks, installed on first use into `~/.cache/sprout-agent/runners`
 * (or `SPROUT_RUNNER_CACHE`) by npmToolbox.ts.
 */
import { join } from 'node:path';
import { npmToolbox, toolboxCache } from '../npmToolbox';
import { REPO_ROOT } from './serverProcess';

/** The toolbox's node_modules folder, installed if it is not yet. */
export function runnerToolbox(): string {
  return npmToolbox(join(REPO_ROOT, 'test', 'fixtures', 'toolbox'), toolboxCache('runners', 'SPROUT_RUNNER_CACHE'));
}
