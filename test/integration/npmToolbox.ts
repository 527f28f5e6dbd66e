/**
 * A folder of npm packages the tests run for real but the project itself does not depend on (test
 * runners, public MCP servers), installed from a package.json and package-lock.json kept under
 * test/fixtures, on first use, into a cache shared by every clone (`~/.cache/sprout-agent/<kind>/<lock
 * hash>`, or the folder an environment variable names): into a fresh folder that is then renamed into
 * place, so test files that start together never see half an install. Nothing of theirs is committed.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The node_modules folder of the toolbox described in `source`, installed into `cache` if it is not yet. */
export function npmToolbox(source: string, cache: string): string {
  const lock = readFileSync(join(source, 'package-lock.json'));
  const key = createHash('sha256').update(lock).update(readFileSync(join(source, 'package.json'))).digest('hex').slice(0, 16);
  const target = join(cache, key);
  if (existsSync(join(target, 'node_modules', '.bin'))) return join(target, 'node_modules');
  mkdirSync(cache, { recursive: true });
  const staging = mkdtempSync(join(cache, `${key}.installing-`));
  try {
    for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(source, file), join(staging, file));
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

/** The cache folder for one kind of toolbox: the variable's folder, else `~/.cache/sprout-agent/<kind>`. */
export function toolboxCache(kind: string, variable: string): string {
  return process.env[variable] ?? join(homedir(), '.cache', 'sprout-agent', kind);
}
