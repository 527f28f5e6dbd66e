import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { FrontMatterError, listField, readFrontMatter, stringField } from '../../../src/customizations/frontMatter';

test('a file without a header is all body', () => {
  assert.deepEqual(readFrontMatter('# Title\ntext\n'), { fields: {}, body: '# Title\ntext\n', bodyLine: 1 });
});

test('a header is split from the body, which starts on the right line', () => {
  const parsed = readFrontMatter('---\ndescription: "Fix tests"\napplyTo: "**/*.ts"\n---\nBody line\n');
  assert.deepEqual(parsed.fields, { description: 'Fix tests', applyTo: '**/*.ts' });
  assert.equal(parsed.body, 'Body line\n');
  assert.equal(parsed.bodyLine, 5);
});

test('CRLF files and a BOM are read like the others', () => {
  const parsed = readFrontMatter('\uFEFF---\r\nname: a\r\n---\r\nBody\r\n');
  assert.deepEqual(parsed.fields, { name: 'a' });
  assert.equal(parsed.body, 'Body\r\n');
});

test('an empty header has no fields', () => {
  assert.deepEqual(readFrontMatter('---\n---\nBody').fields, {});
});

test('a header that is never closed names line 1 and keeps the text', () => {
  assert.throws(() => readFrontMatter('---\nname: a\nBody'), (e: unknown) => e instanceof FrontMatterError && e.line === 1 && /never closed/.test(e.message) && e.body.includes('Body'));
});

test('broken YAML names the line in the file', () => {
  assert.throws(
    () => readFrontMatter('---\nname: a\ntools: [a, b\n---\nBody\n'),
    (e: unknown) => e instanceof FrontMatterError && e.line >= 3 && /not valid YAML on line/.test(e.message) && e.body === 'Body\n',
  );
});

test('a header that is a list, not key: value lines, is refused', () => {
  assert.throws(() => readFrontMatter('---\n- a\n- b\n---\nBody'), (e: unknown) => e instanceof FrontMatterError && /mapping/.test(e.message));
});

test('aliases are refused, so an alias bomb costs nothing', () => {
  const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]', 'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]', 'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]', 'd: [*c,*c,*c,*c,*c,*c,*c,*c,*c]'].join('\n');
  assert.throws(() => readFrontMatter(`---\n${bomb}\n---\nBody`), FrontMatterError);
});

test('fields read as the formats write them: lists or comma-separated strings, bare scalars as text', () => {
  const { fields } = readFrontMatter('---\ntools: [read, "edit"]\nglobs: src/**/*.ts, test/**\nalwaysApply: true\n---\n');
  assert.deepEqual(listField(fields, 'tools'), ['read', 'edit']);
  assert.deepEqual(listField(fields, 'globs'), ['src/**/*.ts', 'test/**']);
  assert.equal(stringField(fields, 'alwaysApply'), 'true');
  assert.equal(stringField(fields, 'missing'), undefined);
  assert.equal(listField(fields, 'missing'), undefined);
});

test('a header YAML refuses is read again with its unquoted values as text; a list, a quoted value and a boolean keep their YAML meaning', () => {
  const { fields } = readFrontMatter("---\ndescription: Use when: the user asks\nglobs: *.ts, src/**\ntools: ['a', 'b']\nname: 'x: y'\nalwaysApply: true\n---\nbody\n");
  assert.deepEqual(fields, { description: 'Use when: the user asks', globs: '*.ts, src/**', tools: ['a', 'b'], name: 'x: y', alwaysApply: true });
});

test('a header still broken after that is refused with the first reading\'s line', () => {
  assert.throws(
    () => readFrontMatter('---\ndescription: a: b\n  bad: [\n---\nbody\n'),
    (error: unknown) => error instanceof FrontMatterError && /not valid YAML on line 2/.test(error.message),
  );
});

test('a comma list splits only outside braces: a brace group stays one glob', () => {
  assert.deepEqual(listField({ applyTo: '**/*.{ts,tsx}, {src,web}/**/*.{js,vue},docs/**' }, 'applyTo'), ['**/*.{ts,tsx}', '{src,web}/**/*.{js,vue}', 'docs/**']);
});
