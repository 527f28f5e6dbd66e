import assert from 'node:assert/strict';
import { test } from 'node:test';
import { slugify } from '../src/slugify.js';

test('joins words with dashes', () => {
  assert.equal(slugify('Hello World'), 'hello-world');
});

test('collapses runs of spaces and punctuation into one dash', () => {
  assert.equal(slugify('  Sprout:  an agent, with hooks! '), 'sprout-an-agent-with-hooks');
});
