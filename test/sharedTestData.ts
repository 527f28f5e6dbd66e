/**
 * Real third-party files kept outside the repository for tests (the repository keeps no copy of them):
 * `SPROUT_TEST_DATA`, or by default `shared/test-data` beside the checkout's parent folder (the main
 * checkout's sibling, or a worktree's two levels up). Absent: the tests that need them skip, saying why.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const REPO_ROOT = resolve(import.meta.dirname, '..');

export const TEST_DATA_ENV = 'SPROUT_TEST_DATA';

/** The shared test data folder, or undefined when it is not on this machine. */
export function sharedTestData(): string | undefined {
  const fromEnv = process.env[TEST_DATA_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return existsSync(fromEnv) ? resolve(fromEnv) : undefined;
  return [resolve(REPO_ROOT, '..', 'shared', 'test-data'), resolve(REPO_ROOT, '..', '..', 'shared', 'test-data')].find((dir) => existsSync(dir));
}

/** A test option that skips with the reason when the folder `sub` of the shared data is absent. */
export function needsSharedData(sub: string): { skip: string | false; dir: string } {
  const root = sharedTestData();
  const dir = root === undefined ? '' : resolve(root, sub);
  if (root === undefined || !existsSync(dir)) return { skip: `the shared test data (${sub}) is not here: set ${TEST_DATA_ENV} to the folder holding it`, dir };
  return { skip: false, dir };
}
