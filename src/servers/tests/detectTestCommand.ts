/**
 * Finds the workspace's test command when none is configured: a real `package.json` test script,
 * pytest, `cargo test`, `go test ./...` or a Makefile `test` target, in that order.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const NPM_PLACEHOLDER = /no test specified/;

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function npmTestScript(root: string): string | undefined {
  const text = read(join(root, 'package.json'));
  if (text === undefined) return undefined;
  try {
    const pkg = JSON.parse(text) as { scripts?: Record<string, unknown> };
    const script = pkg.scripts?.test;
    return typeof script === 'string' && script.trim() !== '' && !NPM_PLACEHOLDER.test(script) ? 'npm test' : undefined;
  } catch {
    return undefined;
  }
}

function usesPytest(root: string): boolean {
  if (['pytest.ini', 'conftest.py'].some((f) => existsSync(join(root, f)))) return true;
  if (/\[tool\.pytest/.test(read(join(root, 'pyproject.toml')) ?? '')) return true;
  if (/\[(?:tool:)?pytest\]/.test((read(join(root, 'setup.cfg')) ?? '') + (read(join(root, 'tox.ini')) ?? ''))) return true;
  for (const dir of ['tests', 'test', '.']) {
    try {
      if (readdirSync(join(root, dir)).some((f) => /^test_.*\.py$|_test\.py$/.test(f))) return true;
    } catch {
      // no such folder
    }
  }
  return false;
}

export function detectTestCommand(root: string): string | undefined {
  const npm = npmTestScript(root);
  if (npm) return npm;
  if (usesPytest(root)) return 'python3 -m pytest';
  if (existsSync(join(root, 'Cargo.toml'))) return 'cargo test';
  if (existsSync(join(root, 'go.mod'))) return 'go test ./...';
  const makefile = read(join(root, 'Makefile')) ?? read(join(root, 'makefile'));
  if (makefile && /^test\s*:/m.test(makefile)) return 'make test';
  return undefined;
}
