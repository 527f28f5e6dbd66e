import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectTestCommand } from '../../../src/servers/tests/detectTestCommand';

describe('detectTestCommand', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'sprout-detect-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('finds nothing in an empty folder', () => assert.equal(detectTestCommand(dir), undefined));

  it('uses a real package.json test script, not npm init\'s placeholder', () => {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'echo "Error: no test specified" && exit 1' } }));
    assert.equal(detectTestCommand(dir), undefined);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'node --test' } }));
    assert.equal(detectTestCommand(dir), 'npm test');
  });

  it('runs the root script with the project\'s package manager: packageManager field, then lockfile', () => {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'vitest run' }, workspaces: ['packages/*'] }));
    writeFileSync(join(dir, 'yarn.lock'), '');
    assert.equal(detectTestCommand(dir), 'yarn test');
    writeFileSync(join(dir, 'pnpm-lock.yaml'), '');
    assert.equal(detectTestCommand(dir), 'pnpm test');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'vitest run' }, packageManager: 'npm@11.0.0' }));
    assert.equal(detectTestCommand(dir), 'npm test');
  });

  it('finds jest, vitest and mocha configs without a test script', () => {
    writeFileSync(join(dir, '.mocharc.yml'), 'spec: test\n');
    assert.equal(detectTestCommand(dir), 'npx --no mocha');
    writeFileSync(join(dir, 'vitest.config.ts'), 'export default {}\n');
    assert.equal(detectTestCommand(dir), 'npx --no vitest run');
    writeFileSync(join(dir, 'jest.config.js'), 'module.exports = {}\n');
    assert.equal(detectTestCommand(dir), 'npx --no jest');
  });

  it('tells pytest from plain unittest', () => {
    mkdirSync(join(dir, 'tests'));
    writeFileSync(join(dir, 'tests', 'test_x.py'), 'import unittest\nclass T(unittest.TestCase):\n    pass\n');
    assert.equal(detectTestCommand(dir), 'python3 -m unittest discover -s tests', 'unittest finds no tests in a folder without __init__.py');
    writeFileSync(join(dir, 'tests', '__init__.py'), '');
    assert.equal(detectTestCommand(dir), 'python3 -m unittest');
    writeFileSync(join(dir, 'tests', 'test_y.py'), 'def test_y():\n    assert True\n');
    assert.equal(detectTestCommand(dir), 'python3 -m pytest', 'a plain test function needs pytest');
    rmSync(join(dir, 'tests', 'test_y.py'));
    writeFileSync(join(dir, 'pytest.ini'), '[pytest]\n');
    assert.equal(detectTestCommand(dir), 'python3 -m pytest', 'pytest configured');
  });

  it('detects cargo, go and make', () => {
    writeFileSync(join(dir, 'Makefile'), 'build:\n\ttrue\ntest: build\n\ttrue\n');
    assert.equal(detectTestCommand(dir), 'make test');
    writeFileSync(join(dir, 'go.mod'), 'module x\n');
    assert.equal(detectTestCommand(dir), 'go test ./...');
    writeFileSync(join(dir, 'Cargo.toml'), '[package]\n');
    assert.equal(detectTestCommand(dir), 'cargo test');
  });
});
