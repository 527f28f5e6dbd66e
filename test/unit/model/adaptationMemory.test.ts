/**
 * The memory of what endpoints taught: per endpoint and model, bounded, and read defensively (a
 * record that was tampered with or written by another version gives only known adaptations). The
 * CLI's file form keeps it private and survives a new process.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { MAX_REMEMBERED, parseRecord, processAdaptationMemory } from '../../../src/model/adaptationMemory';
import { adaptationFilePath, fileAdaptationMemory } from '../../../src/runtime/adaptationFile';

test('a lesson is kept per endpoint and model, and the least recently taught go first past the bound', () => {
  const memory = processAdaptationMemory();
  memory.remember('http://a/v1', 'm1', ['no-stream-options']);
  assert.deepEqual(memory.recall('http://a/v1', 'm1'), ['no-stream-options']);
  assert.deepEqual(memory.recall('http://a/v1', 'm2'), []);
  assert.deepEqual(memory.recall('http://b/v1', 'm1'), []);
  for (let i = 0; i < MAX_REMEMBERED; i++) memory.remember(`http://h${i}/v1`, 'm', ['instructions-as-user']);
  assert.deepEqual(memory.recall('http://a/v1', 'm1'), [], 'the oldest entry went');
  assert.deepEqual(memory.recall(`http://h${MAX_REMEMBERED - 1}/v1`, 'm'), ['instructions-as-user']);
});

test('a stored record is read defensively: unknown names and malformed entries are dropped', () => {
  const record = parseRecord({ version: 1, entries: { 'http://a/v1 m': ['no-stream-options', 'rm -rf /', 7], bad: 'x' } });
  assert.deepEqual(record.entries, { 'http://a/v1 m': ['no-stream-options'] });
  assert.deepEqual(parseRecord('nonsense').entries, {});
  assert.deepEqual(parseRecord({ entries: [1, 2] }).entries, {});
});

test("the CLI's file: private, survives a new process, and a file that is not ours counts as empty", (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sprout-adapt-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = adaptationFilePath({ XDG_STATE_HOME: dir });
  fileAdaptationMemory(path).remember('http://a/v1', 'm', ['reduced-tool-schemas']);
  assert.deepEqual(fileAdaptationMemory(path).recall('http://a/v1', 'm'), ['reduced-tool-schemas'], 'a new reader finds it');
  if (process.platform !== 'win32') {
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(statSync(join(dir, 'sprout-agent')).mode & 0o777, 0o700);
  }
  writeFileSync(join(dir, 'elsewhere.json'), JSON.stringify({ version: 1, entries: { 'http://a/v1 m': ['no-stream-options'] } }));
  rmSync(path);
  symlinkSync(join(dir, 'elsewhere.json'), path);
  assert.deepEqual(fileAdaptationMemory(path).recall('http://a/v1', 'm'), [], 'a symlink is not followed');
  rmSync(path);
  writeFileSync(path, '{not json');
  assert.deepEqual(fileAdaptationMemory(path).recall('http://a/v1', 'm'), []);
  const errors: string[] = [];
  fileAdaptationMemory(join(dir, 'sprout-agent', 'model-adaptations.json', 'nested'), (m) => errors.push(m)).remember('http://a/v1', 'm', ['no-stream-options']);
  assert.match(errors[0] ?? '', /could not remember what the model endpoint taught/);
  assert.match(readFileSync(path, 'utf8'), /not json/, 'a failed write leaves the file as it was');
});
