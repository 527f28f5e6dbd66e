/**
 * Finds the workspace's test command when none is configured, in this order: the root package.json
 * test script (run with the project's package manager: the `packageManager` field, else its
 * lockfile, else npm), a jest/vitest/mocha/Playwright/jasmine config without a script, `deno test`
 * (deno.json), `bun test` (bunfig.toml), pytest, unittest, `cargo test`,
 * `go test ./...`, a Makefile `test` target. Python is pytest unless every test file is plain
 * unittest and nothing configures pytest.
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

interface PackageJson {
  scripts?: Record<string, unknown>;
  packageManager?: unknown;
}

export function readPackageJson(root: string): PackageJson | undefined {
  const text = read(join(root, 'package.json'));
  if (text === undefined) return undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as PackageJson) : undefined;
  } catch {
    return undefined;
  }
}

/** The root package.json's test script (`pkg`, from readPackageJson), unless it is missing or npm init's placeholder. */
export function testScript(pkg: PackageJson | undefined): string | undefined {
  const script = pkg?.scripts?.test;
  return typeof script === 'string' && script.trim() !== '' && !NPM_PLACEHOLDER.test(script) ? script : undefined;
}

export function packageManager(root: string, pkg: PackageJson | undefined): 'npm' | 'pnpm' | 'yarn' {
  const declared = pkg?.packageManager;
  const name = typeof declared === 'string' ? /^(npm|pnpm|yarn)@/.exec(declared)?.[1] : undefined;
  if (name === 'npm' || name === 'pnpm' || name === 'yarn') return name;
  if (existsSync(join(root, 'pnpm-lock.yaml'))) return 'pnpm';
  if (existsSync(join(root, 'yarn.lock'))) return 'yarn';
  return 'npm';
}

/** How the project's package manager runs a dependency's program: npm's `npx --no`, `pnpm exec`, `yarn` (the only way under Plug'n'Play). */
function execPrefix(root: string): string {
  const pm = packageManager(root, readPackageJson(root));
  if (pm === 'yarn' || existsSync(join(root, '.pnp.cjs')) || existsSync(join(root, '.pnp.js'))) return 'yarn';
  return pm === 'pnpm' ? 'pnpm exec' : 'npx --no';
}

function jsRunnerWithoutScript(root: string): string | undefined {
  let files: string[];
  try {
    files = readdirSync(root);
  } catch {
    return undefined;
  }
  const run = (program: string): string => `${execPrefix(root)} ${program}`;
  if (files.some((f) => /^jest\.config\.[cm]?[jt]s$/.test(f))) return run('jest');
  if (files.some((f) => /^vitest\.config\.[cm]?[jt]s$/.test(f))) return run('vitest run');
  if (files.some((f) => /^\.mocharc\.(?:js|cjs|json|jsonc|ya?ml)$/.test(f))) return run('mocha');
  if (files.some((f) => /^playwright\.config\.[cm]?[jt]s$/.test(f))) return run('playwright test');
  if (existsSync(join(root, 'spec', 'support', 'jasmine.json'))) return run('jasmine');
  if (files.includes('deno.json') || files.includes('deno.jsonc')) return 'deno test';
  if (files.includes('bunfig.toml')) return 'bun test';
  return undefined;
}

/** `tests/`, `test/`, and the same inside the root's Python packages (`simplejson/tests/`). */
function pythonTestDirs(root: string): string[] {
  let packages: string[] = [];
  try {
    packages = readdirSync(root, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.') && existsSync(join(root, e.name, '__init__.py')))
      .map((e) => e.name);
  } catch {
    // an unreadable root has no tests to find
  }
  return ['.', 'tests', 'test', ...packages.flatMap((p) => [`${p}/tests`, `${p}/test`])];
}

function pythonTestFiles(root: string): { dir: string; files: string[] }[] {
  const found: { dir: string; files: string[] }[] = [];
  for (const dir of pythonTestDirs(root)) {
    try {
      const files = readdirSync(join(root, dir)).filter((f) => /^test.*\.py$|_test\.py$/.test(f));
      if (files.length > 0) found.push({ dir, files });
    } catch {
      // no such folder
    }
  }
  return found;
}

function pytestConfigured(root: string): boolean {
  if (['pytest.ini', 'conftest.py'].some((f) => existsSync(join(root, f)))) return true;
  if (/\[tool\.pytest/.test(read(join(root, 'pyproject.toml')) ?? '')) return true;
  return /\[(?:tool:)?pytest\]/.test((read(join(root, 'setup.cfg')) ?? '') + (read(join(root, 'tox.ini')) ?? ''));
}

function pythonCommand(root: string): string | undefined {
  const found = pythonTestFiles(root);
  if (pytestConfigured(root)) return 'python3 -m pytest';
  if (found.length === 0) return undefined;
  const sources = found.flatMap(({ dir, files }) => files.map((f) => read(join(root, dir, f)) ?? ''));
  const plainUnittest = sources.every((s) => /^\s*(?:import unittest|from unittest\b)/m.test(s) && !/^\s*(?:import pytest|from pytest\b)/m.test(s));
  if (!plainUnittest) return 'python3 -m pytest';
  // unittest discovers only importable packages below the start folder (Python 3.11+).
  const inRoot = found.some((f) => f.dir === '.');
  const folder = found[0]?.dir ?? '.';
  return inRoot || existsSync(join(root, folder, '__init__.py')) ? 'python3 -m unittest' : `python3 -m unittest discover -s ${folder}`;
}

export function detectTestCommand(root: string): string | undefined {
  const pkg = readPackageJson(root);
  if (testScript(pkg) !== undefined) return `${packageManager(root, pkg)} test`;
  const js = jsRunnerWithoutScript(root);
  if (js) return js;
  const python = pythonCommand(root);
  if (python) return python;
  if (existsSync(join(root, 'Cargo.toml'))) return 'cargo test';
  if (existsSync(join(root, 'go.mod'))) return 'go test ./...';
  const makefile = read(join(root, 'Makefile')) ?? read(join(root, 'makefile'));
  if (makefile && /^test\s*:/m.test(makefile)) return 'make test';
  return undefined;
}
