// Entry point the extension host calls (`extensionTestsPath` = out/editor/suite): runs every compiled
// `*.test.js` beside it with mocha, BDD style (`describe` / `it`). For the extension engineer: add test
// files as test/editor/suite/<name>.test.ts; test/editor/run.ts bundles each one into out/editor/suite/
// (mocha and vscode stay external). Test inputs arrive in process.env, set by the runner:
//   SPROUT_TEST_MODEL_URL   base URL (with /v1) of a FakeOpenAiServer answering "Fake model reply to: <prompt>";
//                           for a scripted scenario, import startFakeOpenAi in the test (it is bundled in)
//   SPROUT_TEST_HOOK_SERVER JSON { command, args, env } launching test/fakes/hookServer.ts (env.HOOK_SERVER_CONFIG
//                           holds an object-once `_Stop` config; override it per test)
//   SPROUT_TEST_WORKSPACE   the folder the workbench opened
//   SPROUT_EDITOR_GREP      (optional) run only the tests whose full title contains this text
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';
import { scaledMs } from '../../loadScale';

export function run(): Promise<void> {
  // In the extension host console.* cannot be replaced and arguments arrive unformatted, so the
  // reporter formats each line itself before it is forwarded to the runner.
  Mocha.reporters.Base.consoleLog = (...args: unknown[]) => console.log(format(...args));
  const grep = process.env['SPROUT_EDITOR_GREP'];
  // Each test's mocha timeout is a hang guard written for an idle machine: scaled by the load when the
  // test starts (test/loadScale.ts), so a busy machine makes a test slow, never failed.
  const rootHooks: Mocha.RootHookObject = {
    beforeEach(this: Mocha.Context) {
      const test = this.currentTest;
      if (test !== undefined && test.timeout() > 0) test.timeout(scaledMs(test.timeout()));
    },
  };
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 30_000, reporter: 'spec', rootHooks, ...(grep ? { grep } : {}) });
  const files = readdirSync(__dirname).filter((f) => f.endsWith('.test.js')).sort();
  for (const f of files) mocha.addFile(join(__dirname, f));
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const passed = runner.stats?.passes ?? 0;
      console.log(`${passed} passed, ${failures} failed`);
      if (failures > 0) reject(new Error(`${failures} editor test(s) failed`));
      else if (passed === 0) reject(new Error(`no editor tests ran (files: ${files.join(', ') || 'none'})`));
      else resolve();
    });
    // One line per failure in the form `npm test` collects for its closing list (scripts/testSteps.ts).
    runner.on('fail', (test, error: Error) => {
      const message = String(error?.message ?? error).split('\n').map((l) => l.trim()).filter(Boolean).slice(0, 4).join(' ');
      console.log(`✖ ${test.fullTitle()}: ${message.slice(0, 400)}`);
    });
  });
}
