// One question on screen per subject: a second ask while it is open gets the same answer, a new one
// is asked only after it is answered (or failed), and nothing new is asked under an aborted signal.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OpenQuestions } from '../../../src/extension/settings/openQuestions';

function question(): { ask: () => Promise<boolean>; asked: () => number; answer: (value: boolean) => void; fail: (error: Error) => void } {
  let count = 0;
  let settle: { resolve: (v: boolean) => void; reject: (e: Error) => void } | undefined;
  return {
    ask: () => {
      count += 1;
      return new Promise<boolean>((resolve, reject) => (settle = { resolve, reject }));
    },
    asked: () => count,
    answer: (value) => settle?.resolve(value),
    fail: (error) => settle?.reject(error),
  };
}

describe('OpenQuestions', () => {
  it('shares an open question with every ask about the same subject, and asks afresh once it is answered', async () => {
    const open = new OpenQuestions<boolean>();
    const q = question();
    const first = open.ask('server a', q.ask);
    const second = open.ask('server a', q.ask);
    assert.equal(q.asked(), 1, 'one dialog for two asks');
    q.answer(true);
    assert.deepEqual(await Promise.all([first, second]), [true, true]);
    const third = open.ask('server a', q.ask);
    assert.equal(q.asked(), 2, 'answered questions are not shared');
    q.answer(false);
    assert.equal(await third, false);
  });

  it('keeps subjects apart', async () => {
    const open = new OpenQuestions<boolean>();
    const a = question();
    const b = question();
    const forA = open.ask('a', a.ask);
    const forB = open.ask('b', b.ask);
    a.answer(true);
    b.answer(false);
    assert.deepEqual(await Promise.all([forA, forB]), [true, false]);
  });

  it('a failed question is closed: the next ask asks again', async () => {
    const open = new OpenQuestions<boolean>();
    const q = question();
    const failed = open.ask('a', q.ask);
    q.fail(new Error('the window closed'));
    await assert.rejects(failed, /the window closed/);
    const again = open.ask('a', q.ask);
    assert.equal(q.asked(), 2);
    q.answer(true);
    assert.equal(await again, true);
  });

  it('asks nothing new under an aborted signal, but an open question still answers that build', async () => {
    const open = new OpenQuestions<boolean>();
    const q = question();
    const stopped = AbortSignal.abort(new Error('superseded'));
    assert.throws(() => open.ask('a', q.ask, stopped), /superseded/);
    assert.equal(q.asked(), 0);
    const live = open.ask('a', q.ask);
    const late = open.ask('a', q.ask, stopped);
    q.answer(true);
    assert.deepEqual(await Promise.all([live, late]), [true, true]);
  });
});
