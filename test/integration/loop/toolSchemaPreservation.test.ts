// A tool's JSON Schema 2020-12 input schema reaches the model as the MCP server wrote it (SEP-1613,
// SEP-2106; docs/conformance.md): a real stdio MCP server (the FakeHookServer child process, once per
// protocol era) lists a tool whose schema uses `$schema`, `$defs` with `$anchor`, `$ref`, `prefixItems`,
// `unevaluatedProperties`, composition, conditionals and the rest, and the fake OpenAI server records
// the Chat Completions request: its `parameters` are the served schema, key for key. The model's call
// goes back to the server with its arguments untouched. Only a server family whose dialect reduces
// schemas (Gemini, docs/model-servers.md) gets the reduced form, and then only that family.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { openRig, type Rig } from './loopHarness';

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** Every 2020-12 keyword a converter or a zod round trip is known to drop or rewrite. */
const SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://example.com/schemas/plot-route.json',
  $comment: 'served as written; the client must not rewrite it',
  title: 'Plot a route',
  type: 'object',
  $defs: {
    point: {
      $anchor: 'point',
      type: 'array',
      prefixItems: [
        { type: 'number', minimum: -90, maximum: 90, description: 'latitude' },
        { type: 'number', minimum: -180, maximum: 180, description: 'longitude' },
      ],
      items: { type: 'string', description: 'labels after the coordinates' },
      minItems: 2,
    },
    address: {
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
      unevaluatedProperties: false,
    },
  },
  properties: {
    from: { $ref: '#/$defs/point' },
    to: { $ref: '#point' },
    via: { type: 'array', items: { $ref: '#/$defs/point' }, contains: { prefixItems: [{ const: 0 }] }, minContains: 0, maxContains: 1 },
    address: { $ref: '#/$defs/address', description: 'where the route ends' },
    mode: { type: 'string', enum: ['walk', 'drive'], default: 'walk', examples: ['drive'] },
    note: { type: ['string', 'null'], maxLength: 200, deprecated: true },
    tags: { type: 'object', patternProperties: { '^x-': { type: 'string' } }, propertyNames: { pattern: '^[a-z-]+$' }, additionalProperties: false },
    depart: { type: 'string', format: 'date-time', readOnly: false },
    phone: { type: 'string', pattern: '^\\+?[0-9 ]+$' },
    email: { type: 'string', format: 'email' },
  },
  required: ['from', 'to'],
  dependentRequired: { phone: ['address'] },
  dependentSchemas: { email: { required: ['address'] } },
  allOf: [{ anyOf: [{ required: ['mode'] }, { not: { required: ['via'] } }] }],
  oneOf: [{ required: ['phone'] }, { required: ['email'] }, { not: { anyOf: [{ required: ['phone'] }, { required: ['email'] }] } }],
  if: { properties: { mode: { const: 'drive' } }, required: ['mode'] },
  then: { required: ['depart'] },
  else: { properties: { via: { maxItems: 3 } } },
  unevaluatedProperties: false,
};

const ARGUMENTS = { from: [52.52, 13.405, 'Berlin'], to: [48.137, 11.575], mode: 'drive', depart: '2026-12-02T10:00:00Z', tags: { 'x-trip': 'work' }, note: null };

const server = (name: string, era: 'modern' | 'legacy') => ({
  name,
  config: { era, echo: false, extraTools: [{ name: 'plot_route', description: 'Plots a route.', inputSchema: SCHEMA_2020_12 }] },
});

type WireTool = { function: { name: string; parameters?: unknown } };
const parametersOf = (r: Rig, tool: string) => (r.chatBodies()[0]?.tools as WireTool[] | undefined)?.find((t) => t.function.name === tool)?.function.parameters;

describe('a JSON Schema 2020-12 tool schema on its way to the model', () => {
  it('reaches the Chat Completions request unchanged on both protocol eras, and the call comes back with its arguments untouched', async () => {
    rig = await openRig({
      servers: [server('modern', 'modern'), server('legacy', 'legacy')],
      responses: [fakeReply.toolCalls([{ name: 'modern__plot_route', arguments: ARGUMENTS }]), fakeReply.text('plotted')],
    });
    assert.equal((await rig.runtime.session.run('plot it')).reason, 'end_turn');
    const methods = (name: string) => rig?.log(name).flatMap((e) => (e.type === 'request' ? [e.method] : [])) ?? [];
    assert.ok(!methods('modern').includes('initialize') && methods('legacy').includes('initialize'), 'one server on each protocol era');
    assert.deepEqual(parametersOf(rig, 'modern__plot_route'), SCHEMA_2020_12);
    assert.deepEqual(parametersOf(rig, 'legacy__plot_route'), SCHEMA_2020_12);
    assert.deepEqual(rig.calls('modern', 'plot_route').map((c) => c.arguments), [ARGUMENTS]);
  });

  it('is reduced only for a server family that refuses those keywords (Gemini), with local $refs inlined', async () => {
    rig = await openRig({
      servers: [server('modern', 'modern')],
      fake: { rules: ['gemini-schema'] },
      model: { compatibility: 'gemini' },
      responses: [fakeReply.text('nothing to plot')],
    });
    assert.equal((await rig.runtime.session.run('plot it')).reason, 'end_turn');
    const reduced = parametersOf(rig, 'modern__plot_route') as { properties: Record<string, { type?: string; properties?: unknown }> };
    assert.doesNotMatch(JSON.stringify(reduced), /\$schema|\$defs|\$ref|prefixItems|unevaluatedProperties|additionalProperties/);
    assert.equal(reduced.properties.from?.type, 'array', 'the $ref to the point was inlined');
    assert.deepEqual(reduced.properties.address?.properties, { street: { type: 'string' }, city: { type: 'string' } });
  });

  it('gets `items: {}` on an array schema that has none, which OpenAI refuses (invalid_function_parameters), and nothing else changes', async () => {
    const loose = {
      type: 'object',
      $defs: { batch: { type: 'array', description: 'any values' } },
      properties: {
        paths: { type: 'array', description: 'files to read' },
        rows: { type: 'array', items: { type: ['array', 'null'] } },
        batch: { $ref: '#/$defs/batch' },
        mode: { type: 'string', default: { type: 'array' } },
      },
      required: ['paths'],
    };
    rig = await openRig({
      servers: [{ name: 'loose', config: { era: 'modern', echo: false, extraTools: [{ name: 'read_many', description: 'Reads files.', inputSchema: loose }] } }],
      responses: [fakeReply.toolCalls([{ name: 'loose__read_many', arguments: { paths: ['a.txt'] } }]), fakeReply.text('read')],
    });
    assert.equal((await rig.runtime.session.run('read them')).reason, 'end_turn', 'the strict fake accepted every request');
    const expected = structuredClone(loose) as typeof loose & Record<string, Record<string, Record<string, unknown>>>;
    Object.assign(expected.$defs.batch as object, { items: {} });
    Object.assign(expected.properties.paths as object, { items: {} });
    Object.assign((expected.properties.rows as { items: object }).items, { items: {} });
    assert.deepEqual(parametersOf(rig, 'loose__read_many'), expected, 'items added where missing; a default that looks like a schema is data and stays as written');
    assert.deepEqual(rig.calls('loose', 'read_many').map((c) => c.arguments), [{ paths: ['a.txt'] }]);
  });
});
