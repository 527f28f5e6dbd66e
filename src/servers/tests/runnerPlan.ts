/**
 * How one test command is run so that its runner reports in a machine format, without touching the
 * user's project: the command's last segment names the runner (`jest`, `python3 -m pytest`, an npm
 * test script that ends in `vitest run`, ...), and only then the server adds reporter flags (a
 * report file under the state dir, `--no-fail-fast`, `-json`) and environment (a wide `COLUMNS`, no
 * bytecode files). Anything else runs exactly as given and is read as text. pnpm and yarn scripts
 * get no flags (how they pass arguments differs by version); their runner's text is read instead.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { RunnerId } from './formats/readReport';
import { readPackageJson, testScript } from './detectTestCommand';
import { pytestConfigReport } from './pytestConfig';

export interface RunPlan {
  /** The command as configured or detected (what the model and the user see). */
  command: string;
  /** What the shell runs: the command plus reporter flags. */
  shell: string;
  env: Record<string, string>;
  runner: RunnerId;
  /** The report file the runner was asked to write, when it was. */
  reportFile?: string;
  /** The report file is the user's own (named in their command): read it, never delete it. */
  ownReport?: boolean;
}

/** JavaScript runners a package manager runs from the workspace's dependencies (`yarn jest`). */
const JS_RUNNER_BINS = ['jest', 'vitest', 'mocha', '_mocha', 'ava', 'tap', 'tape', 'uvu', 'jasmine', 'playwright', 'react-scripts', 'craco'];

/**
 * Yarn Plug'n'Play: no node_modules/.bin, so its runners run only through `yarn` (the `.pnp.cjs` of
 * the folder or a parent, up to the repository's root: the folder holding `.git`).
 */
export function isYarnPnp(dir: string): boolean {
  for (let at = resolve(dir), up = dirname(at); ; at = up, up = dirname(at)) {
    if (existsSync(join(at, '.pnp.cjs')) || existsSync(join(at, '.pnp.js'))) return true;
    if (up === at || existsSync(join(at, '.git'))) return false;
  }
}

/**
 * Commands run through the package manager that owns the workspace: under Yarn PnP a runner named
 * bare, through npx or node_modules/.bin (`jest`, `npx --no vitest run`) runs as `yarn jest`.
 */
function throughYarn(command: string): string {
  const bins = JS_RUNNER_BINS.join('|');
  const start = new RegExp(`(^|&&|\\|\\||;|\\|)(\\s*)(?:npx\\s+(?:--no(?:-install)?\\s+|-y\\s+)?)?(?:\\./)?(?:node_modules/\\.bin/)?(${bins})(?=\\s|$)`, 'g');
  return command.replace(start, '$1$2yarn $3');
}

/** Words of a shell segment, quotes removed (enough to recognise a runner, never to run anything). */
function words(segment: string): string[] {
  return [...segment.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

/** The last command of a shell line (`tsc && jest --ci` -> `jest --ci`), with env prefixes dropped. */
export function lastCommand(line: string): string[] {
  const segments = line.split(/&&|\|\||[;|]/);
  const tokens = words(segments[segments.length - 1] ?? '');
  while (tokens.length > 0 && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(tokens[0] ?? '') || ['cross-env', 'env', 'npx', 'exec'].includes(tokens[0] ?? '') || /^--no(?:-install)?$/.test(tokens[0] ?? ''))) tokens.shift();
  if ((tokens[0] === 'pnpm' || tokens[0] === 'yarn' || tokens[0] === 'bundle') && tokens[1] === 'exec') tokens.splice(0, 2);
  else if ((tokens[0] === 'yarn' || tokens[0] === 'pnpm') && JS_RUNNER_BINS.includes(tokens[1] ?? '')) tokens.shift();
  return tokens;
}

/** Which runner a single command invokes. */
export function runnerOf(tokens: readonly string[]): RunnerId {
  const [program = '', ...rest] = tokens;
  const base = program.split('/').pop() ?? '';
  if (base === 'jest') return 'jest';
  // Create React App's test script is Jest, with Jest's flags.
  if ((base === 'react-scripts' || base === 'craco') && rest[0] === 'test') return 'jest';
  if (base === 'ctest') return 'ctest';
  if (base === 'vitest') return 'vitest';
  if (base === 'mocha' || base === '_mocha') return 'mocha';
  if (base === 'node' && rest.includes('--test')) return 'node';
  if (base === 'pytest' || base === 'py.test') return 'pytest';
  if (/^python(?:3(?:\.\d+)?)?$/.test(base) && rest[0] === '-m') return rest[1] === 'pytest' ? 'pytest' : rest[1] === 'unittest' ? 'unittest' : 'other';
  if (base === 'cargo' && rest[0] === 'test') return 'cargo';
  if (base === 'go' && rest[0] === 'test') return 'go';
  if (['ava', 'tap', 'tape', 'uvu', 'jasmine'].includes(base)) return base as RunnerId;
  if ((base === 'playwright' || base === 'bun' || base === 'deno') && rest[0] === 'test') return base;
  if (base === 'rspec') return 'rspec';
  if (base === 'phpunit' || (base === 'php' && (rest[0] ?? '').split('/').pop() === 'phpunit')) return 'phpunit';
  return 'other';
}

const quote = (value: string): string => `'${value.replace(/'/g, `'\\''`)}'`;

function reporterFlags(runner: RunnerId, reportFile: string): string | undefined {
  switch (runner) {
    case 'jest':
      return `--json --outputFile=${quote(reportFile)} --testLocationInResults`;
    case 'vitest':
      return `--reporter=default --reporter=json --outputFile.json=${quote(reportFile)}`;
    case 'mocha':
      return `--reporter json --reporter-option output=${quote(reportFile)}`;
    case 'pytest':
      // The cache plugin stays on: `--lf`/`--sw` in a project's addopts need it, and its folder ignores itself.
      return `-rfE --tb=short --junitxml=${quote(reportFile)} -o junit_family=xunit1`;
    case 'ava':
      return '--tap';
    case 'tap':
      return '--reporter=tap';
    case 'playwright':
      return '--reporter=json';
    case 'bun':
      return `--reporter=junit --reporter-outfile=${quote(reportFile)}`;
    case 'deno':
      return `--junit-path=${quote(reportFile)}`;
    case 'rspec':
      // The progress dots stay on the output; `--out` belongs to the formatter named just before it.
      return `--format progress --format json --out ${quote(reportFile)}`;
    case 'phpunit':
      return `--log-junit ${quote(reportFile)}`;
    case 'ctest':
      return ctestWritesJunit() ? `--output-junit ${quote(reportFile)}` : undefined;
    default:
      return undefined;
  }
}

/** Runners whose report file is named by the environment, not a flag. */
const REPORT_BY_ENV: Partial<Record<RunnerId, (file: string) => Record<string, string>>> = {
  // Playwright 1.x reads either name, depending on its version.
  playwright: (file) => ({ PLAYWRIGHT_JSON_OUTPUT_FILE: file, PLAYWRIGHT_JSON_OUTPUT_NAME: file }),
};

/** Runners whose report file is the flag's business: the ones with a machine report on a file. */
const FILE_REPORTS = new Set<RunnerId>(['jest', 'vitest', 'mocha', 'pytest', 'playwright', 'bun', 'deno', 'rspec', 'phpunit', 'ctest']);

let ctestJunit: boolean | undefined;

/** CTest writes JUnit XML from 3.21 on (`--output-junit`); older ones are read from their text. */
function ctestWritesJunit(): boolean {
  if (ctestJunit === undefined) {
    const version = /ctest version (\d+)\.(\d+)/.exec(spawnSync('ctest', ['--version'], { encoding: 'utf8', timeout: 10_000 }).stdout ?? '');
    ctestJunit = version !== null && (Number(version[1]) > 3 || (Number(version[1]) === 3 && Number(version[2]) >= 21));
  }
  return ctestJunit;
}

/** The JUnit file a command names itself, per runner: the user's report, read where they asked for it. */
const OWN_REPORT: Partial<Record<RunnerId, RegExp>> = {
  pytest: /\s--junit-?xml(?:=|\s+)(\S+)/,
  phpunit: /\s--log-junit(?:=|\s+)(\S+)/,
  deno: /\s--junit-path(?:=|\s+)(\S+)/,
  bun: /\s--reporter-outfile(?:=|\s+)(\S+)/,
  ctest: /\s--output-junit(?:=|\s+)(\S+)/,
};

/** The folder the last segment runs in: `cd build && ctest` runs in build; CTest's paths are its test dir's. */
function segmentDir(command: string, root: string, runner: RunnerId): string {
  let dir = root;
  for (const cd of command.matchAll(/(?:^|&&|;)\s*cd\s+("[^"]*"|'[^']*'|\S+)\s*(?=&&|;)/g)) dir = resolve(dir, (cd[1] ?? '.').replace(/^["']|["']$/g, ''));
  const testDir = runner === 'ctest' ? /\s--test-dir(?:=|\s+)(\S+)/.exec(command)?.[1] : undefined;
  return testDir ? resolve(dir, testDir) : dir;
}

function ownReport(command: string, root: string, runner: RunnerId): string | undefined {
  const named = OWN_REPORT[runner]?.exec(command)?.[1]?.replace(/^["']|["']$/g, '');
  // No file on the command line: the one the project's pytest configuration names, if any.
  if (!named) return runner === 'pytest' ? pytestConfigReport(segmentDir(command, root, runner)) : undefined;
  return isAbsolute(named) ? named : resolve(segmentDir(command, root, runner), named);
}

/** Runners whose default is watch mode whatever the terminal (Create React App's `test`): CI=true runs them once. */
function watchesByDefault(tokens: readonly string[]): boolean {
  const base = (tokens[0] ?? '').split('/').pop() ?? '';
  return (base === 'react-scripts' || base === 'craco') && tokens[1] === 'test' && !tokens.includes('--watchAll=false');
}

function runnerEnv(runner: RunnerId, reportFile?: string): Record<string, string> {
  // Wide lines keep pytest's summaries whole; no .pyc files keeps the workspace as it was.
  if (runner === 'pytest') return { COLUMNS: '200', PYTHONDONTWRITEBYTECODE: '1' };
  if (runner === 'unittest') return { PYTHONDONTWRITEBYTECODE: '1' };
  const byEnv = REPORT_BY_ENV[runner];
  return byEnv && reportFile ? byEnv(reportFile) : {};
}

/** Inserts flags before a ` -- ` that hands the rest to the tests (cargo, deno), else at the end. */
function beforeHarnessArgs(command: string, flags: string): string {
  const harness = command.search(/\s--(?:\s|$)/);
  return harness < 0 ? `${command} ${flags}` : `${command.slice(0, harness)} ${flags}${command.slice(harness)}`;
}

function withFlags(command: string, runner: RunnerId, reportFile: string, root: string): { shell: string; reportFile?: string; ownReport?: boolean } {
  const own = ownReport(command, root, runner);
  if (own) {
    // The user's report stays theirs: no second file flag; pytest still gets its failure summary and xunit1's file and line.
    const extra = runner === 'pytest' ? ' -rfE --tb=short -o junit_family=xunit1' : '';
    return { shell: `${command}${extra}`, reportFile: own, ownReport: true };
  }
  // cargo names each test binary on stderr and prints its results on stdout: one pipe keeps them in order.
  if (runner === 'cargo') return { shell: `${/--no-fail-fast\b/.test(command) ? command : beforeHarnessArgs(command, '--no-fail-fast')} 2>&1` };
  if (runner === 'go') return { shell: /\s-json\b/.test(command) ? command : command.replace(/\bgo\s+test\b/, 'go test -json') };
  const flags = reporterFlags(runner, reportFile);
  if (!flags) return { shell: command };
  return { shell: runner === 'deno' ? beforeHarnessArgs(command, flags) : `${command} ${flags}`, ...(FILE_REPORTS.has(runner) ? { reportFile } : {}) };
}

/** `npm test` and friends: the script's runner, and flags through `npm test -- ...` (npm only). */
function scriptPlan(command: string, tokens: readonly string[], root: string, reportFile: string): RunPlan | undefined {
  const [pm, verb, name] = tokens;
  const isTest = verb === 'test' || verb === 't' || ((verb === 'run' || verb === 'run-script') && name === 'test');
  if ((pm !== 'npm' && pm !== 'pnpm' && pm !== 'yarn') || !isTest) return undefined;
  const script = testScript(readPackageJson(root));
  const runner = script === undefined ? 'other' : runnerOf(lastCommand(script));
  const flags = reporterFlags(runner, reportFile);
  const scriptTokens = script === undefined ? [] : lastCommand(script);
  const env = { ...runnerEnv(runner, reportFile), ...(watchesByDefault(scriptTokens) ? { CI: 'true' } : {}) };
  if (pm !== 'npm' || !flags || /[;|&]/.test(command)) return { command, shell: command, env: { ...runnerEnv(runner), ...(env.CI ? { CI: env.CI } : {}) }, runner };
  const file = FILE_REPORTS.has(runner) ? { reportFile } : {};
  return { command, shell: `${command}${tokens.includes('--') ? '' : ' --'} ${flags}`, env, runner, ...file };
}

export function planRun(command: string, root: string, reportFile: string): RunPlan {
  const tokens = lastCommand(command);
  const script = scriptPlan(command, tokens, root, reportFile);
  if (script) return script;
  const runner = runnerOf(tokens);
  const line = isYarnPnp(root) ? throughYarn(command) : command;
  const planned = withFlags(line, runner, reportFile, root);
  const env = { ...runnerEnv(runner, planned.ownReport ? undefined : planned.reportFile), ...(watchesByDefault(tokens) ? { CI: 'true' } : {}) };
  return { command, ...planned, env, runner };
}
