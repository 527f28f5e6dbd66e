// The bundled servers' command line (node:util parseArgs, strict): values as `--name value` or
// `--name=value`, bare flags, `--help`, and each kind of mistake as an error naming the option, followed
// by the server's usage.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { flagOption, HelpRequested, intOption, parseServerArgs } from '../../../src/servers/common/serverArgs';

const spec = { usage: 'Usage: sprout-mcp-test [options]\n', extraOptions: ['command', 'timeout-ms', 'allow-protected-writes'] };

test('values, = values and flags; --root and --state-dir resolve against the cwd', () => {
  const args = parseServerArgs(['--root', 'ws', '--command=npm test -- --grep a=b', '--allow-protected-writes', '--timeout-ms', '500'], spec, '/home/u');
  assert.equal(args.root, '/home/u/ws');
  assert.equal(args.options.get('command'), 'npm test -- --grep a=b');
  assert.equal(flagOption(args, 'allow-protected-writes'), true);
  assert.equal(intOption(args, 'timeout-ms', 10), 500);
  assert.equal(parseServerArgs(['--state-dir', 's'], spec, '/home/u').stateDir, '/home/u/s');
  const none = parseServerArgs([], spec, '/home/u');
  assert.equal(none.root, '/home/u');
  assert.equal(flagOption(none, 'allow-protected-writes'), false);
  assert.equal(intOption(none, 'timeout-ms', 10), 10);
});

test('--help and -h ask for the usage, wherever they are', () => {
  for (const argv of [['--help'], ['--root', '.', '-h']]) assert.throws(() => parseServerArgs(argv, spec), (e: unknown) => e instanceof HelpRequested && e.usage === spec.usage);
});

test('each mistake names the option and shows the usage', () => {
  for (const [argv, problem] of [
    [['--frobnicate', 'x'], 'unknown option --frobnicate'],
    [['--rot=/tmp'], 'unknown option --rot'],
    [['--root'], 'option --root needs a value'],
    [['--root', '--command', 'x'], 'option --root needs a value'],
    [['stray'], 'unexpected argument "stray" (options are --name value)'],
    [['--allow-protected-writes=false'], 'option --allow-protected-writes takes no value'],
  ] as const) {
    assert.throws(() => parseServerArgs(argv, spec), { message: `${problem}\n\n${spec.usage.trimEnd()}` }, argv.join(' '));
  }
  assert.throws(() => intOption(parseServerArgs(['--timeout-ms', '0'], spec), 'timeout-ms', 1), /--timeout-ms must be a positive integer, got "0"/);
});
