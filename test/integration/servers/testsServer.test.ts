import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type ServerProcess } from './serverProcess';
import { waitFor } from '../../waitFor';

const NOT_RUN = /have not passed on the current state.*tests__run_tests/s;

/** A node project whose suite logs each run to `runsFile` (outside the project, so logging does not make it stale). */
function sampleProject(dir: string, runsFile: string, body: { failing: boolean; gate?: string }): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'sample', version: '1.0.0', scripts: { test: 'node --test' } }));
  // The failing variant breaks one of the two tests, so counts show both a pass and a failure.
  writeFileSync(join(dir, 'math.js'), `exports.add = (a, b) => a + b${body.failing ? ' + (a === 0 ? 0 : 1)' : ''};\n`);
  writeFileSync(
    join(dir, 'math.test.js'),
    `const test = require('node:test');
const assert = require('node:assert');
const { add } = require('./math');
require('node:fs').appendFileSync(${JSON.stringify(runsFile)}, 'run\\n');
test('adds small numbers', async () => {
${body.gate === undefined ? '  // runs at once (the line keeps the assertion on line 7)\n' : `  await new Promise((r) => { const look = () => (require('node:fs').existsSync(${JSON.stringify(body.gate)}) ? r() : setTimeout(look, 50)); look(); });
`}  assert.equal(add(1, 2), 3, 'one plus two should be three');
});
test('adds zero', () => assert.equal(add(0, 5), 5));
`,
  );
}

function runs(file: string): number {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
}

describe('tests server (child process over stdio, real sample projects)', () => {
  let base: string;
  const servers: ServerProcess[] = [];
  const start = async (root: string, extra: string[] = []): Promise<ServerProcess> => {
    const server = await startServer('tests', ['--root', root, '--state-dir', join(root, '..', `${root.split('/').pop()}-state`), ...extra]);
    servers.push(server);
    return server;
  };

  before(() => {
    base = mkdtempSync(join(tmpdir(), 'sprout-tests-'));
  });
  after(async () => {
    for (const server of servers) await server.close().catch(() => undefined);
    rmSync(base, { recursive: true, force: true });
  });

  it('lists run_tests and the _Stop and _PostToolUse hooks', async () => {
    const root = join(base, 'listing');
    sampleProject(root, join(base, 'listing.runs'), { failing: false });
    const server = await start(root);
    const { tools } = await server.client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['_PostToolUse', '_Stop', 'run_tests']);
    assert.match(tools.find((t) => t.name === 'run_tests')?.description ?? '', /npm test/);
  });

  it('passing suite: run_tests reports green, and a fresh green result does not object or rerun', async () => {
    const root = join(base, 'green');
    const runsFile = join(base, 'green.runs');
    sampleProject(root, runsFile, { failing: false });
    const server = await start(root);
    const result = await server.call('run_tests');
    assert.equal(result.isError, false, result.text);
    assert.match(result.text, /^Tests PASSED: 0 failed, 2 passed/);
    assert.match(result.text, /command: npm test \| exit code: 0/);
    assert.equal(runs(runsFile), 1);
    assert.equal((await server.call('_Stop')).text, '');
    assert.equal(runs(runsFile), 1, 'a fresh result answers without running again');
  });

  it('_PostToolUse after a file-changing tool starts a background run at once, so _Stop answers from a fresh result', async () => {
    const root = join(base, 'post');
    const runsFile = join(base, 'post.runs');
    sampleProject(root, runsFile, { failing: true });
    // Watching off: only the hook can learn of the edit.
    const server = await start(root, ['--watch', 'off']);
    assert.match((await server.call('run_tests')).text, /^Tests FAILED/);
    const told = (toolName: string) => server.call('_PostToolUse', {}, { 'sprout/hook': { event: '_PostToolUse', sessionId: 's', tool: `workspace__${toolName}`, server: 'workspace', toolName } });
    writeFileSync(join(root, 'math.js'), 'exports.add = (a, b) => a + b;\n');
    assert.equal((await told('read_file')).text, '', 'nothing to inject');
    // A run the read started by mistake would show within this pause (a slow machine only hides it).
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(runs(runsFile), 1, 'a read-only tool starts no run');
    assert.equal((await told('edit_file')).text, '');
    await waitFor(() => runs(runsFile) >= 2, 'the background run the edit started', { everyMs: 100 });
    assert.equal(runs(runsFile), 2, 'the edit started one background run');
    await waitFor(async () => (await server.call('_Stop')).text === '', '_Stop to answer green from the background result', { everyMs: 250 });
    assert.equal(runs(runsFile), 2, '_Stop ran nothing itself');
  });

  it('failing suite: red objection while fresh, rerun once the workspace changes, quiet once green', async () => {
    const root = join(base, 'red');
    const runsFile = join(base, 'red.runs');
    sampleProject(root, runsFile, { failing: true });
    const server = await start(root);
    const result = await server.call('run_tests');
    assert.match(result.text, /^Tests FAILED: 1 failed, 1 passed/);
    assert.match(result.text, /- adds small numbers \(math\.test\.js:7\)\n {4}one plus two should be three\n {4}expected: 3\n {4}actual: 4/);
    assert.match(result.text, /exit code: 1/);
    const objection = await server.call('_Stop');
    assert.match(objection.text, /tests fail on the current state/);
    assert.match(objection.text, /adds small numbers/);
    assert.equal(runs(runsFile), 1, 'fresh and red: no new run');

    writeFileSync(join(root, 'math.js'), 'exports.add = (a, b) => a + b;\n');
    const answer = (await server.call('_Stop')).text;
    assert.ok(answer === '' || NOT_RUN.test(answer), `stale: a new run, or the instruction to run: ${answer}`);
    if (answer !== '') await waitFor(async () => (await server.call('_Stop')).text === '', '_Stop to answer green once fixed', { everyMs: 250 });
    assert.equal(runs(runsFile), 2, 'exactly one background run for the changed state');
  });

  it('a suite slower than the hook timeout: _Stop answers within budget, joins the running run, then reports the result', async () => {
    const root = join(base, 'slow');
    const runsFile = join(base, 'slow.runs');
    // The suite runs until the test lets it finish (the gate is outside the project, so making it does
    // not make the state stale): a _Stop that waited for the run instead of answering within its budget
    // would never answer, and the hang guards would fail the test.
    const gate = join(base, 'slow.go');
    sampleProject(root, runsFile, { failing: true, gate });
    const server = await start(root, ['--hook-budget-ms', '800', '--command', 'node --test']);
    const first = await server.call('_Stop');
    assert.match(first.text, NOT_RUN, 'never run: instruction to run the tests');
    const second = await server.call('_Stop');
    assert.match(second.text, /a run is in progress/, 'running: still answered, within its budget');
    writeFileSync(gate, '');
    const answer = await waitFor(async () => {
      const text = (await server.call('_Stop')).text;
      return !NOT_RUN.test(text) && text;
    }, '_Stop to report the run\'s result', { everyMs: 250 });
    assert.match(answer, /tests fail on the current state/);
    assert.match(answer, /one plus two should be three/);
    assert.equal(runs(runsFile), 1, 'the repeated _Stop calls joined one run instead of starting more');
  });

  it('remembers the last result across a kill and restart', async () => {
    const root = join(base, 'restart');
    const runsFile = join(base, 'restart.runs');
    sampleProject(root, runsFile, { failing: true });
    const first = await start(root);
    await first.call('run_tests');
    process.kill(first.pid, 'SIGKILL');
    await first.close().catch(() => undefined);
    const second = await start(root);
    assert.match((await second.call('_Stop')).text, /tests fail on the current state/);
    assert.equal(runs(runsFile), 1, 'the restarted server used the stored result');
  });

  it('tells the model clearly when there is no test command', async () => {
    const root = join(base, 'empty');
    mkdirSync(root);
    const server = await start(root);
    const result = await server.call('run_tests');
    assert.equal(result.isError, true);
    assert.match(result.text, /No test command found/);
    assert.equal((await server.call('_Stop')).text, '', 'nothing to run is no objection');
  });
  it('a mistyped runner: "could not run" with its error and what to check, never "the tests fail"', async () => {
    const root = join(base, 'broken-command');
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'broken', version: '1.0.0', scripts: { test: 'npx --no-install jset' } }));
    const server = await start(root, ['--watch', 'off']);
    const result = await server.call('run_tests');
    const s = result.structured as { status: string; problem?: string };
    assert.equal(s.status, 'could_not_run', result.text);
    assert.match(s.problem ?? '', /could not determine executable to run|not found|E404/);
    const stop = await server.call('_Stop');
    assert.match(stop.text, /^The test command could not run, so nothing is known about the tests/);
    assert.match(stop.text, /check the command itself/);
    assert.doesNotMatch(stop.text, /tests fail/);
  });
});
