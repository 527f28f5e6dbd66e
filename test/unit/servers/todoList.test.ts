import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { renderPostCompact, renderStopObjection, renderUpdate, validateTodoList, vanishedOpenItems } from '../../../src/servers/todo/todoList';

const item = (text: string, done = false) => ({ text, done });

describe('todo list rules', () => {
  it('accepts a plain list and trims the text', () => {
    const result = validateTodoList([item('  write tests '), item('ship', true)]);
    assert.deepEqual(result, { ok: true, items: [item('write tests'), item('ship', true)] });
  });

  it('rejects too many items, over-long items, empties and duplicates, naming each', () => {
    const many = validateTodoList(Array.from({ length: 51 }, (_, i) => item(`task ${i}`)));
    assert.equal(many.ok, false);
    assert.match(!many.ok ? many.errors.join() : '', /51 items; at most 50/);
    const bad = validateTodoList([item('x'.repeat(201)), item(' '), item('Same  thing'), item('same thing', true)]);
    assert.equal(bad.ok, false);
    const errors = !bad.ok ? bad.errors.join('\n') : '';
    assert.match(errors, /item 1 has 201 characters/);
    assert.match(errors, /item 2 is empty/);
    assert.match(errors, /item 4 duplicates item 3/);
  });

  it('rejects control, bidi-override and zero-width characters', () => {
    for (const hidden of ['a\u0007b', 'a\nb', 'evil\u202Etxt', 'zero\u200Bwidth', 'iso\u2066late', 'bom\uFEFF']) {
      const result = validateTodoList([item(hidden)]);
      assert.equal(result.ok, false, JSON.stringify(hidden));
      assert.match(!result.ok ? result.errors[0] ?? '' : '', /control, bidi or zero-width character \(U\+/);
    }
    assert.equal(validateTodoList([item('accents é and emoji 🌱 are fine')]).ok, true);
  });

  it('marks the next open item and warns when open items vanish undone', () => {
    const text = renderUpdate([item('a', true), item('b'), item('c')], ['old']);
    assert.match(text, /^Todo list \(1\/3 done\):/);
    assert.match(text, /2\. \[ \] b {2}<- next/);
    assert.doesNotMatch(text, /c {2}<- next/);
    assert.match(text, /Warning: 1 open item was removed without being done: "old"/);
    assert.deepEqual(vanishedOpenItems([item('old'), item('kept'), item('finished', true)], [item('Kept')]), ['old']);
  });

  it('renders the _Stop objection only while items are open, and _PostCompact only when non-empty', () => {
    assert.equal(renderStopObjection([]), '');
    assert.equal(renderStopObjection([item('a', true)]), '');
    assert.equal(renderStopObjection([item('a', true), item('b')]), 'You have open todo items. Keep working.\n\n1. [x] a\n2. [ ] b  <- next');
    assert.equal(renderPostCompact([]), '');
    assert.match(renderPostCompact([item('a', true)]), /^# Todo List\n\n1\. \[x\] a$/);
  });
});
