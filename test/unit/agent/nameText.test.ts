// Names from outside are quoted with what does not show escaped (issue 31, item 4): the zero-width and
// direction characters of "Trojan Source" (https://trojansource.codes/), controls, odd spaces.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { quotedName, visibleName, visibleNames } from '../../../src/agent/nameText';

test('a plain name is only quoted', () => {
  assert.equal(quotedName('todo'), '"todo"');
  assert.equal(quotedName('my-server_2'), '"my-server_2"');
  assert.equal(quotedName('café'), '"café"', 'letters of any script show as they are');
});

test('zero-width, direction, control and odd-space characters are escaped, each visibly', () => {
  assert.equal(quotedName('todo\u200b'), '"todo\\u200b"');
  assert.equal(quotedName('to\u200ddo'), '"to\\u200ddo"');
  assert.equal(quotedName('\u202etodo'), '"\\u202etodo"');
  assert.equal(quotedName('todo\u2066'), '"todo\\u2066"');
  assert.equal(quotedName('\ufefftodo'), '"\\ufefftodo"');
  assert.equal(quotedName('todo\u001b[2J'), '"todo\\u001b[2J"');
  assert.equal(quotedName('todo\u00a0x'), '"todo\\u00a0x"');
  assert.equal(quotedName('todo\u{e0041}'), '"todo\\u{e0041}"', 'a tag character above the BMP');
  assert.equal(quotedName('a b'), '"a b"', 'a plain space shows');
});

test('quotes and backslashes inside are escaped, so the quoted text is exactly the name', () => {
  assert.equal(quotedName('a"b\\c'), '"a\\"b\\\\c"');
  assert.equal(visibleNames(['todo', 'todo\u200b']), 'todo, todo\\u200b', 'a list that does not quote keeps not quoting');
  assert.equal(visibleName('a"b'), 'a"b');
});

test('a variation selector and a Hangul filler, which draw nothing, are escaped', () => {
  assert.equal(quotedName('todo\ufe0f'), '"todo\\ufe0f"');
  assert.equal(quotedName('todo\u3164'), '"todo\\u3164"');
});
