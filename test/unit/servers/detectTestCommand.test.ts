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

  it('detects pytest, cargo, go and make', () => {
    mkdirSync(join(dir, 'tests'));
    writeFileSync(join(dir, 'tests', 'test_x.py'), '');
    assert.equal(detectTestCommand(dir), 'python3 -m pytest');
    rmSync(join(dir, 'tests'), { recursive: true });
    writeFileSync(join(dir, 'Makefile'), 'build:\n\ttrue\ntest: build\n\ttrue\n');
    assert.equal(detectTestCommand(dir), 'make test');
    writeFileSync(join(dir, 'go.mod'), 'module x\n');
    assert.equal(detectTestCommand(dir), 'go test ./...');
    writeFileSync(join(dir, 'Cargo.toml'), '[package]\n');
    assert.equal(detectTestCommand(dir), 'cargo test');
  });
});
