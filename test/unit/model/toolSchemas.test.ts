/**
 * Reduced tool schemas: what zod and pydantic (the MCP SDKs' schema writers) emit, in the subset
 * Gemini's proto accepts, meaning kept: local refs inlined, a nullable type as one type plus
 * `nullable`, `const` as a one-value enum, `oneOf` as `anyOf`, `allOf` merged.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { completeToolSchema, reduceToolSchema } from '../../../src/model/toolSchemas';

const REFUSED = /"\$schema"|"\$ref"|"\$defs"|"additionalProperties"|"const"|"format"|"default"|"propertyNames"|"exclusiveMinimum"|"oneOf"|"allOf"|"title"/;

test('a zod-style schema loses what strict APIs refuse and keeps what tells the model how to call', () => {
  const zod = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    title: 'EditArgs',
    properties: {
      path: { type: 'string', format: 'uri', description: 'File to edit', minLength: 1 },
      mode: { type: 'string', enum: ['replace', 'append'], default: 'replace' },
      count: { type: ['integer', 'null'], exclusiveMinimum: 0, maximum: 10 },
      tags: { type: 'array', items: { type: 'string' }, maxItems: 5 },
      options: { type: 'object', additionalProperties: { type: 'string' }, propertyNames: { pattern: '^[a-z]+$' } },
    },
    required: ['path', 'ghost'],
    additionalProperties: false,
  };
  const reduced = reduceToolSchema(zod);
  assert.doesNotMatch(JSON.stringify(reduced), REFUSED);
  assert.deepEqual(reduced, {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'File to edit', minLength: 1 },
      mode: { type: 'string', enum: ['replace', 'append'] },
      count: { type: 'integer', nullable: true, maximum: 10 },
      tags: { type: 'array', items: { type: 'string' }, maxItems: 5 },
      options: { type: 'object' },
    },
    required: ['path'],
  });
});

test('pydantic-style refs, unions and constants are expressed in the subset', () => {
  const pydantic = {
    $defs: { Point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } },
    type: 'object',
    properties: {
      at: { $ref: '#/$defs/Point' },
      kind: { oneOf: [{ const: 'a' }, { const: 'b' }] },
      both: { allOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { properties: { b: { type: 'string' } }, required: ['b'] }] },
      self: { $ref: '#/$defs/Missing' },
    },
  };
  const reduced = reduceToolSchema(pydantic);
  assert.doesNotMatch(JSON.stringify(reduced), REFUSED);
  assert.deepEqual((reduced.properties as Record<string, unknown>).at, { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] });
  assert.deepEqual((reduced.properties as Record<string, unknown>).kind, { anyOf: [{ enum: ['a'] }, { enum: ['b'] }] });
  assert.deepEqual((reduced.properties as Record<string, unknown>).both, { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, required: ['b'] });
  assert.deepEqual((reduced.properties as Record<string, unknown>).self, {});
});

test('a recursive ref stops, an empty schema becomes an object with no properties, results are cached', () => {
  const tree = { $defs: { Node: { type: 'object', properties: { child: { $ref: '#/$defs/Node' } } } }, $ref: '#/$defs/Node' };
  assert.equal(reduceToolSchema(tree).type, 'object');
  const empty = {};
  assert.deepEqual(reduceToolSchema(empty), { type: 'object', properties: {} });
  assert.equal(reduceToolSchema(empty), reduceToolSchema(empty));
});

test('an array with no items gets `items: {}` in both forms; a schema with nothing to add is the same object', () => {
  const loose = { type: 'object', properties: { paths: { type: 'array' }, grid: { type: 'array', items: { type: ['array', 'null'] } }, pick: { anyOf: [{ type: 'array' }, { type: 'string' }] } } };
  assert.deepEqual(completeToolSchema(loose), {
    type: 'object',
    properties: { paths: { type: 'array', items: {} }, grid: { type: 'array', items: { type: ['array', 'null'], items: {} } }, pick: { anyOf: [{ type: 'array', items: {} }, { type: 'string' }] } },
  });
  assert.deepEqual(loose.properties.paths, { type: 'array' }, 'the served schema is not changed');
  assert.deepEqual((reduceToolSchema(loose).properties as Record<string, unknown>).paths, { type: 'array', items: {} });
  const complete = { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } }, mode: { type: 'string', enum: [{ type: 'array' }] } } };
  assert.equal(completeToolSchema(complete), complete, 'data under enum is not a schema');
});
