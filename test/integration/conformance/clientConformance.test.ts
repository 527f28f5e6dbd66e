// The official MCP conformance suite (@modelcontextprotocol/conformance) drives Sprout's MCP client
// (test/conformance/sproutConformanceClient.ts: the product's McpHub) through its client scenarios.
// The suite needs Node >= 22, so it runs under the Node 24 the editor suites use (the npm package
// node@24, cached once in the editor cache); the client under test runs on this project's Node.
// Every scenario the suite lists is either expected to pass here or written down, with the reason,
// in NOT_APPLICABLE (and docs/conformance.md); a new scenario in a newer suite fails the list check.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { ensureNode24 } from '../../../scripts/ensureCodeServer';

const SUITE = require.resolve('@modelcontextprotocol/conformance/dist/index.js');
const CLIENT = resolve(__dirname, '..', '..', 'conformance', 'sproutConformanceClient.ts');

export const PASSING = [
  'initialize',
  'tools_call',
  'elicitation-sep1034-client-defaults',
  'sse-retry',
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/2025-03-26-oauth-endpoint-fallback',
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported',
];

/** Scenarios for features Sprout does not have, and why (kept in step with docs/conformance.md). */
export const NOT_APPLICABLE: Record<string, string> = {
  'auth/basic-cimd': 'Client ID Metadata Documents need the client metadata at a public https URL; a local agent has none, so Sprout registers dynamically.',
  'auth/pre-registration': 'pre-registered OAuth client credentials are not configurable; Sprout uses dynamic client registration.',
  'auth/client-credentials-jwt': 'machine-to-machine grants (an extension): Sprout signs a person in through the browser.',
  'auth/client-credentials-basic': 'machine-to-machine grants (an extension): Sprout signs a person in through the browser.',
  'auth/cross-app-access-complete-flow': 'enterprise cross-app access (an extension) is not implemented.',
  'auth/2025-03-26-oauth-metadata-backcompat': 'its authorization server metadata, served at the origin, names another issuer (<origin>/oauth); the v2 SDK refuses that (RFC 8414 3.3 issuer check, a mix-up defence) and Sprout keeps the check.',
};

let node24: string;
let cwd: string;
before(() => {
  node24 = ensureNode24();
  cwd = mkdtempSync(join(tmpdir(), 'sprout-conformance-'));
});
after(() => rmSync(cwd, { recursive: true, force: true }));

function suite(args: string[]) {
  return spawnSync(node24, [SUITE, ...args], { cwd, encoding: 'utf8', timeout: 120_000, env: { ...process.env, NO_COLOR: '1' } });
}

describe('MCP conformance suite, client scenarios', () => {
  it('every scenario the suite lists is either run here or written down as not applicable', () => {
    const listed = suite(['list', '--client']);
    assert.equal(listed.status, 0, listed.stderr);
    const scenarios = [...listed.stdout.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1] ?? '');
    assert.ok(scenarios.length > 0, listed.stdout);
    assert.deepEqual(scenarios.filter((s) => !PASSING.includes(s) && !(s in NOT_APPLICABLE)), []);
  });

  const command = [process.execPath, '--import', pathToFileURL(require.resolve('tsx')).href, CLIENT].map((part) => JSON.stringify(part)).join(' ');
  for (const scenario of PASSING) {
    it(scenario, () => {
      const run = suite(['client', '--command', command, '--scenario', scenario]);
      // The suite reports on stderr.
      const summary = /Passed: .*/.exec(run.stderr)?.[0] ?? '';
      assert.equal(run.status, 0, `${summary}\n${run.stderr.slice(-4000)}`);
      assert.match(summary, /, 0 failed, 0 warnings/);
    });
  }
});
