/**
 * How a listed tool's inputSchema is read (toolInfos.ts `objectInputSchema`): an object schema that
 * does not say so is taken as one, a schema that cannot be an object refuses the tool in words.
 * Real servers' cases: test/integration/mcp/corpus/mcpServers.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { objectInputSchema, REFUSED_SCHEMA_KEY } from '../../../src/mcp/toolInfos';

const arm = { type: 'object', properties: { q: { type: 'string' } } };

test('an object schema is kept as it is', () => {
  assert.deepEqual(objectInputSchema(arm), { schema: arm });
});

test('a top-level anyOf without type becomes an object schema that keeps its arms (no invented properties)', () => {
  assert.deepEqual(objectInputSchema({ anyOf: [arm, arm] }), { schema: { anyOf: [arm, arm], type: 'object' } });
});

test('only a $schema, or no schema at all, is a tool without arguments', () => {
  assert.deepEqual(objectInputSchema({ $schema: 'http://json-schema.org/draft-07/schema#' }), { schema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: {} } });
  assert.deepEqual(objectInputSchema(undefined), { schema: { type: 'object', properties: {} } });
  assert.deepEqual(objectInputSchema([]), { schema: { type: 'object', properties: {} } });
});

test('a type list that allows an object is read as an object', () => {
  assert.deepEqual(objectInputSchema({ type: ['object', 'null'], properties: {} }), { schema: { type: 'object', properties: {} } });
});

test('a type that cannot be an object refuses the tool, naming the type', () => {
  const verdict = objectInputSchema({ type: 'string' });
  assert.ok('refused' in verdict);
  assert.match(verdict.refused, /type "string".*object schema/);
  assert.deepEqual(objectInputSchema({ type: 'object', [REFUSED_SCHEMA_KEY]: 'why' }), { refused: 'why' });
});
