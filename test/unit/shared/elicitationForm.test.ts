// The form of an MCP elicitation: the spec's primitive fields (with the enum shapes old and new) become
// typed fields; answers are checked (required, types, ranges, formats, choices) the same way
// everywhere; a schema outside the spec is refused with a reason rather than guessed at.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkElicitationAnswer, elicitationFields, type ElicitField } from '../../../src/shared/elicitationForm';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2 },
    email: { type: 'string', format: 'email' },
    age: { type: 'integer', minimum: 1, maximum: 120, default: 30 },
    ok: { type: 'boolean', default: false },
    pet: { type: 'string', enum: ['cat', 'dog'], enumNames: ['Cats', 'Dogs'] },
    hero: { type: 'string', oneOf: [{ const: 'h1', title: 'Superman' }] },
    tools: { type: 'array', minItems: 1, maxItems: 2, items: { anyOf: [{ const: 'saw', title: 'Saw' }, { const: 'drill', title: 'Drill' }, { const: 'axe', title: 'Axe' }] } },
  },
  required: ['name'],
};

function fields(): ElicitField[] {
  const parsed = elicitationFields(schema);
  assert.ok('fields' in parsed, JSON.stringify(parsed));
  return parsed.fields;
}

describe('elicitation forms', () => {
  it('turns the requested schema into typed fields in order', () => {
    const f = fields();
    assert.deepEqual(f.map((x) => [x.name, x.kind, x.required]), [
      ['name', 'string', true], ['email', 'string', false], ['age', 'number', false], ['ok', 'boolean', false],
      ['pet', 'enum', false], ['hero', 'enum', false], ['tools', 'multi', false],
    ]);
    const pet = f[4];
    assert.deepEqual(pet?.kind === 'enum' ? pet.options : [], [{ value: 'cat', label: 'Cats' }, { value: 'dog', label: 'Dogs' }]);
  });

  it('accepts a fitting answer and drops keys the form does not have', () => {
    const checked = checkElicitationAnswer(fields(), { name: 'Ada', age: 36, ok: true, tools: ['saw'], sneaky: 'x' });
    assert.deepEqual(checked, { ok: true, content: { name: 'Ada', age: 36, ok: true, tools: ['saw'] } });
  });

  it('names every problem: required, length, format, range, whole number, choices', () => {
    const checked = checkElicitationAnswer(fields(), { name: 'A', email: 'nope', age: 3.5, pet: 'cow', tools: ['saw', 'drill', 'axe'] });
    assert.ok(!checked.ok);
    assert.deepEqual(Object.keys(checked.errors).sort(), ['age', 'email', 'name', 'pet', 'tools']);
    assert.match(checked.errors.name ?? '', /at least 2 characters/);
    assert.match(checked.errors.age ?? '', /whole number/);
    assert.equal(checkElicitationAnswer(fields(), {}).ok, false);
  });

  it('refuses schemas that are not a flat form', () => {
    assert.ok('error' in elicitationFields({ type: 'object', properties: { deep: { type: 'object' } } }));
    assert.ok('error' in elicitationFields({ type: 'array' }));
    assert.ok('error' in elicitationFields({ type: 'object', properties: { f: { type: 'string', format: 'ipv6' } } }));
  });
});
