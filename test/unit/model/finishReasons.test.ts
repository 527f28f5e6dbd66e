/** Which finish reasons say the server failed: the providers' own failure words, whole, in any case. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { finishedInFailure } from '../../../src/model/finishReasons';

test("the providers' failure words are failures, in any case (Cohere writes them in capitals)", () => {
  for (const said of ['error', 'ERROR', 'ERROR_LIMIT', 'ERROR_TOXIC', 'insufficient_system_resource', 'abort']) assert.equal(finishedInFailure(said), true, said);
});

test('ordinary ends, cuts and filters are not failures, nor is no finish reason', () => {
  const words = ['stop', 'length', 'tool_calls', 'content_filter', 'eos', 'eos_token', 'end', 'end_turn', 'stop_sequence', 'max_tokens', 'model_length', 'COMPLETE', 'MAX_TOKENS', 'SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'MALFORMED_FUNCTION_CALL'];
  for (const said of words) assert.equal(finishedInFailure(said), false, said);
  assert.equal(finishedInFailure(null), false);
});

test('a word that only contains a failure word is not one', () => {
  for (const said of ['resource_ok', 'no_error', 'error_free', 'abortable', 'insufficient_detail', 'timeout_ms']) assert.equal(finishedInFailure(said), false, said);
});
