/**
 * The JUnit file a project's pytest configuration names in `addopts`, in each file pytest reads
 * (https://docs.pytest.org/en/stable/reference/customize.html): the first file that is pytest's decides,
 * from the folder pytest runs in upwards; a relative path is the run folder's. Public report of the
 * addopts form: https://github.com/pytest-dev/pytest/issues/3072.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pytestConfigReport } from '../../../src/servers/tests/pytestConfig';
import { planRun } from '../../../src/servers/tests/runnerPlan';

function project(files: Record<string, string>): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'sprout-pytestcfg-')));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

test('each configuration file pytest reads, in its own form', () => {
  const cases: [Record<string, string>, string | undefined][] = [
    [{ 'tox.ini': '[tox]\nenvlist = py3\n\n[pytest]\naddopts =\n    -ra\n    --junitxml=out/tox.xml\nmarkers = slow\n' }, 'out/tox.xml'],
    [{ 'setup.cfg': '[metadata]\nname = x\n\n[tool:pytest]\naddopts = --junit-xml out/cfg.xml -q\n' }, 'out/cfg.xml'],
    [{ 'pyproject.toml': '[project]\nname = "x"\n\n[tool.pytest.ini_options]\naddopts = ["-ra", "--junitxml=out/list.xml"]\n' }, 'out/list.xml'],
    [{ 'pyproject.toml': '[tool.black]\nline-length = 100\n' }, undefined],
    [{ 'tox.ini': '[tox]\nenvlist = py3\n' }, undefined],
    // pytest.ini is pytest's even without the option: it decides, and pyproject.toml beside it is not read.
    [{ 'pytest.ini': '[pytest]\naddopts = -q\n', 'pyproject.toml': '[tool.pytest.ini_options]\naddopts = "--junitxml=out/no.xml"\n' }, undefined],
  ];
  for (const [files, expected] of cases) {
    const dir = project(files);
    try {
      assert.equal(pytestConfigReport(dir), expected === undefined ? undefined : join(dir, expected), JSON.stringify(files));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});

test('found from a subfolder upwards, relative to the folder pytest runs in; the run adds no second --junitxml', () => {
  const dir = project({ 'pytest.ini': '[pytest]\naddopts = --junitxml=reports/j.xml\n', 'pkg/test_a.py': '' });
  try {
    assert.equal(pytestConfigReport(join(dir, 'pkg')), join(dir, 'pkg', 'reports', 'j.xml'));
    const plan = planRun('python3 -m pytest', dir, '/state/r');
    assert.equal(plan.reportFile, join(dir, 'reports', 'j.xml'));
    assert.equal(plan.ownReport, true);
    assert.doesNotMatch(plan.shell, /--junitxml/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
