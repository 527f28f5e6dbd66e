/**
 * What one test command means in a monorepo. A root command that fans out to the packages
 * (`npm test --workspaces`, `pnpm -r test`, `yarn workspaces foreach`, `turbo run test`,
 * `nx run-many -t test`, `lerna run test`, or a root script that is one of these) becomes one run
 * per package of that package's own script, so each runner is asked for its machine report; a Cargo
 * workspace is one `cargo test --workspace` whose binaries are told apart by crate; Go modules and
 * Python projects in subfolders run each in their folder. Anything else (one runner at the root,
 * jest or vitest `projects` included, or a custom script) runs as given; its failures are still given
 * their package by path. `only` narrows a plan to some packages (the affected-first run).
 */
import { join } from 'node:path';
import { detectTestCommand, packageManager, readPackageJson, testScript } from './detectTestCommand';
import { lastCommand } from './runnerPlan';
import type { WorkspaceLayout, WorkspacePackage } from './workspaceLayout';

/** One command run for some packages (usually one; a Cargo workspace runs its crates together). */
export interface GroupRun {
  packages: WorkspacePackage[];
  /** The command as the package would be tested by hand (shown, and what the shell runs). */
  command: string;
  /** Root-relative folder it runs in. */
  dir: string;
  /** Folders whose `node_modules/.bin` go first on PATH (what a package manager adds for a script). */
  binDirs: string[];
}

export interface SkippedPackage {
  name: string;
  dir: string;
  reason: string;
}

export type SuitePlan = { kind: 'whole' } | { kind: 'packages'; runs: GroupRun[]; skipped: SkippedPackage[] };

const FILTERS = /^--(?:filter|scope|ignore|since|include|exclude|from|projects?|affected)\b|^-F$/;

/** The script every package runs when `line` fans out to the workspace's packages, else undefined. */
export function fanOutScript(line: string): string | undefined {
  if (/&&|\|\||[;|&<>`$]/.test(line)) return undefined;
  const t = lastCommand(line);
  if (t.some((w) => FILTERS.test(w))) return undefined;
  const bare = t.slice(1).filter((w) => !w.startsWith('-'));
  const [tool] = t;
  const afterRun = (): string | undefined => (bare[0] === 'run' || bare[0] === 'run-script' ? bare[1] : bare[0] === 't' ? 'test' : bare[0]);
  if (tool === 'npm' && t.some((w) => ['--workspaces', '-ws', '--ws'].includes(w) || /^--workspaces=true$/.test(w))) return afterRun();
  if (tool === 'pnpm' && t.some((w) => w === '-r' || w === '--recursive')) return afterRun();
  if (tool === 'yarn' && bare[0] === 'workspaces' && bare[1] === 'run') return bare[2];
  if (tool === 'yarn' && bare[0] === 'workspaces' && bare[1] === 'foreach') return bare[2] === 'run' ? bare[3] : bare[2];
  if (tool === 'turbo') return bare[0] === 'run' ? bare[1] : bare[0];
  if (tool === 'lerna' && bare[0] === 'run') return bare[1];
  if (tool === 'nx' && bare[0] === 'run-many') {
    const flag = t.findIndex((w) => w === '-t' || w === '--target' || w === '--targets');
    if (flag > 0) return t[flag + 1];
    return /^(?:-t|--targets?)=(\S+)$/.exec(t.find((w) => /^(?:-t|--targets?)=/.test(w)) ?? '')?.[1];
  }
  return undefined;
}

/** `npm test`, `pnpm run test`: the root script it runs, else the line itself. */
function effectiveLine(command: string, root: string): string {
  const [pm, verb, name] = lastCommand(command);
  const isTest = verb === 'test' || verb === 't' || ((verb === 'run' || verb === 'run-script') && name === 'test');
  if ((pm === 'npm' || pm === 'pnpm' || pm === 'yarn') && isTest && !/[;&|]/.test(command)) return testScript(readPackageJson(root)) ?? command;
  return command;
}

function ancestors(dir: string): string[] {
  const parts = dir === '' ? [] : dir.split('/');
  return parts.map((_, i) => parts.slice(0, parts.length - i).join('/')).concat('');
}

function jsRuns(layout: WorkspaceLayout, script: string): { runs: GroupRun[]; skipped: SkippedPackage[] } {
  const runs: GroupRun[] = [];
  const skipped: SkippedPackage[] = [];
  for (const pkg of layout.packages) {
    const line = pkg.scripts?.[script];
    if (line === undefined || /no test specified/.test(line)) skipped.push({ name: pkg.name, dir: pkg.dir, reason: `no "${script}" script` });
    else runs.push({ packages: [pkg], command: line, dir: pkg.dir, binDirs: ancestors(pkg.dir) });
  }
  return { runs, skipped };
}

function folderRuns(root: string, layout: WorkspaceLayout): { runs: GroupRun[]; skipped: SkippedPackage[] } {
  const runs: GroupRun[] = [];
  const skipped: SkippedPackage[] = [];
  for (const pkg of layout.packages) {
    const command = pkg.ecosystem === 'go' ? 'go test ./...' : detectTestCommand(join(root, pkg.dir));
    if (command === undefined) skipped.push({ name: pkg.name, dir: pkg.dir, reason: 'no tests found' });
    else runs.push({ packages: [pkg], command, dir: pkg.dir, binDirs: [] });
  }
  return { runs, skipped };
}

/** The command a user would type to test every package when the root declares none. */
export function workspaceCommand(root: string, layout: WorkspaceLayout): string | undefined {
  if (layout.kind === 'cargo') return 'cargo test --workspace';
  if (layout.kind === 'go') return 'go test ./... (in each module)';
  if (layout.kind === 'python') return 'python tests (in each project)';
  if (!layout.packages.some((p) => p.scripts?.test !== undefined)) return undefined;
  const pm = layout.kind === 'pnpm' ? 'pnpm' : packageManager(root, readPackageJson(root));
  return pm === 'pnpm' ? 'pnpm -r test' : pm === 'yarn' ? 'yarn workspaces foreach -A run test' : 'npm test --workspaces --if-present';
}

function narrowed(plan: { runs: GroupRun[]; skipped: SkippedPackage[] }, only: ReadonlySet<string> | undefined): SuitePlan {
  if (!only) return { kind: 'packages', ...plan };
  const runs = plan.runs.map((r) => ({ ...r, packages: r.packages.filter((p) => only.has(p.name)) })).filter((r) => r.packages.length > 0);
  return { kind: 'packages', runs, skipped: plan.skipped };
}

function cargoRun(layout: WorkspaceLayout, command: string, only: ReadonlySet<string> | undefined): SuitePlan {
  const packages = layout.packages.filter((p) => !only || only.has(p.name));
  const chosen = only ? packages.map((p) => `-p ${p.name}`).join(' ') : '--workspace';
  const extra = command.replace(/^cargo\s+test\b/, '').replace(/\s--workspace\b|\s--all\b/g, '');
  return { kind: 'packages', runs: [{ packages, command: `cargo test ${chosen}${extra}`, dir: '', binDirs: [] }], skipped: [] };
}

/** How `command` is run in this layout; `only` keeps the packages named (an affected-first run). */
export function planSuite(root: string, command: string, layout: WorkspaceLayout | undefined, only?: ReadonlySet<string>): SuitePlan {
  if (!layout) return { kind: 'whole' };
  const line = effectiveLine(command, root);
  if (layout.kind === 'cargo') return /^cargo\s+test\b/.test(line) && !/[;&|]/.test(line) ? cargoRun(layout, line, only) : { kind: 'whole' };
  if (layout.kind === 'go' || layout.kind === 'python') {
    const own = layout.kind === 'go' ? /^go\s+test\b/.test(line) : false;
    return own || command === workspaceCommand(root, layout) ? narrowed(folderRuns(root, layout), only) : { kind: 'whole' };
  }
  const script = fanOutScript(line);
  return script === undefined ? { kind: 'whole' } : narrowed(jsRuns(layout, script), only);
}
