/**
 * The test runners the tests server's suites run for real but the project itself does not use
 * (ava, node-tap, tape, uvu, jasmine, Playwright Test, bun, deno, pnpm), from the npm registry at the
 * versions test/fixtures/toolbox locks. Installed on first use into a cache shared by every clone
 * (`~/.cache/sprout-agent/runners/<lock hash>`, or `SPROUT_RUNNER_CACHE`): into a fresh folder that is
 * then renamed into place, so test files that start together never see half an install.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './serverProcess';

const SOURCE = join(REPO_ROOT, 'test', 'fixtures', 'toolbox');

/** The toolbox's node_modules folder, installed if it is not yet. */
export function runnerToolbox(): string {
  const lock = readFileSync(join(SOURCE, 'package-lock.json'));
  const key = createHash('sha256').update(lock).update(readFileSync(join(SOURCE, 'package.json'))).digest('hex').slice(0, 16);
  const cache = process.env.SPROUT_RUNNER_CACHE ?? join(homedir(), '.cache', 'sprout-agent', 'runners');
  const target = join(cache, key);
  if (existsSync(join(target, 'node_modules', '.bin'))) return join(target, 'node_modules');
  mkdirSync(cache, { recursive: true });
  const staging = mkdtempSync(join(cache, `${key}.installing-`));
  try {
    for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(SOURCE, file), join(staging, file));
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: staging, stdio: 'pipe', timeout: 15 * 60_000 });
    try {
      renameSync(staging, target);
    } catch (error) {
      // Another test file finished the same install first: use its copy.
      if (!existsSync(join(target, 'node_modules', '.bin'))) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return join(target, 'node_modules');
}
