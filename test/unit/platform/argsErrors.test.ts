// What a mistyped command line is told: an option that is really an environment variable is named as
// that variable, a misspelt one gets the closest real option, and other parseArgs errors keep Node's words.
import assert from 'node:assert/strict';
import { parseArgs } from 'node:util';
import { describe, it } from 'node:test';
import { explainArgsError } from '../../../src/platform/argsErrors';
import { CLI_ENVIRONMENT } from '../../../src/cli/cliArgs';

const OPTIONS = { model: { type: 'string' }, 'max-rounds': { type: 'string' }, 'trust-workspace': { type: 'boolean' }, json: { type: 'boolean' } } as const;

function explain(args: string[]): string {
  try {
    parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: true });
  } catch (error) {
    return explainArgsError(error, OPTIONS, CLI_ENVIRONMENT);
  }
  assert.fail(`${args.join(' ')} parsed`);
}

describe('explainArgsError', () => {
  it('the CLI\'s environment list is its usage\'s', () => {
    assert.ok(CLI_ENVIRONMENT.includes('OPENAI_BASE_URL') && CLI_ENVIRONMENT.includes('SPROUT_AGENT_HOOK_TIMEOUT_MS') && CLI_ENVIRONMENT.includes('MCP_HOOK_SERVERS'), CLI_ENVIRONMENT.join(' '));
  });

  it('names the environment variable an option spells, with or without its prefix', () => {
    assert.equal(explain(['--base-url', 'http://x']), 'Unknown option --base-url: this command reads that setting from the environment variable OPENAI_BASE_URL (OPENAI_BASE_URL=... before the command).');
    assert.match(explain(['--api-key=sk-1']), /environment variable OPENAI_API_KEY/);
    assert.match(explain(['--hook-timeout-ms', '5']), /SPROUT_AGENT_HOOK_TIMEOUT_MS/);
    assert.match(explain(['--mcp-hook-servers', '*']), /MCP_HOOK_SERVERS/);
  });

  it('offers the closest option for a misspelt one, and nothing when none is close', () => {
    assert.equal(explain(['--modle', 'x']), 'Unknown option --modle: did you mean --model?');
    assert.equal(explain(['--trust']), 'Unknown option --trust: did you mean --trust-workspace?');
    assert.equal(explain(['--max-round', '3']), 'Unknown option --max-round: did you mean --max-rounds?');
    assert.equal(explain(['--frobnicate']), 'Unknown option --frobnicate.');
    assert.equal(explain(['-q']), 'Unknown option -q.');
  });

  it('keeps Node\'s words for the other errors', () => {
    assert.match(explain(['--model']), /argument missing/);
    assert.match(explain(['--json=yes']), /does not take an argument/);
  });
});
