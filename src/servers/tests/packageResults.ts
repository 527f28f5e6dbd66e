/**
 * Turns the commands of one run into per-package results: each failure's file made relative to the
 * workspace root (a package's runner names it relative to the package) and given its package (the
 * package its command tested, else the crate its Cargo binary belongs to, else the package folder
 * holding its file), and each package's counts (its own command's, else the sum of the report's
 * per-file or per-binary counts that belong to it) and status.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join, posix } from 'node:path';
import { displayPath } from './formats/failureText';
import type { GroupRun } from './suitePlan';
import type { CommandOutcome } from './testRun';
import type { PackageResult, TestFailure, TestStatus, UnitCounts } from './testResult';
import { packageOf, type WorkspaceLayout, type WorkspacePackage } from './workspaceLayout';

export interface Part {
  group: GroupRun;
  /** Undefined when the run was stopped before this command started. */
  outcome: CommandOutcome | undefined;
}

interface Context {
  root: string;
  layout?: WorkspaceLayout;
  packageFingerprints?: ReadonlyMap<string, string>;
}

function rootRelative(file: string | undefined, dir: string, root: string): string | undefined {
  if (file === undefined) return undefined;
  if (isAbsolute(file)) return displayPath(root, file);
  return dir === '' ? file : posix.normalize(posix.join(dir, file));
}

const crateKey = (name: string): string => name.replace(/-/g, '_');

/** The one package holding `file` relative to its own folder, when the root has no such file (a crate's `tests/x.rs`). */
function packageHolding(layout: WorkspaceLayout, root: string, file: string): WorkspacePackage | undefined {
  if (existsSync(join(root, file))) return undefined;
  const holders = layout.packages.filter((p) => p.dir !== '' && existsSync(join(root, p.dir, file)));
  return holders.length === 1 ? holders[0] : undefined;
}

function owner(layout: WorkspaceLayout, group: GroupRun, root: string, hint: { package?: string; crate?: string; file?: string }): WorkspacePackage | undefined {
  if (group.packages.length === 1) return group.packages[0];
  const named = hint.package ?? hint.crate;
  if (named !== undefined) {
    const byName = layout.packages.find((p) => p.name === named || crateKey(p.name) === crateKey(named));
    if (byName) return byName;
  }
  if (hint.file === undefined) return undefined;
  return packageHolding(layout, root, hint.file) ?? packageOf(layout, hint.file);
}

/** A failure's file is relative to its crate in a Cargo workspace run from the root: the crate's copy. */
function fileIn(pkg: WorkspacePackage | undefined, file: string | undefined, group: GroupRun, root: string): string | undefined {
  if (!pkg || file === undefined || pkg.dir === '' || group.packages.length <= 1 || file.startsWith(`${pkg.dir}/`) || existsSync(join(root, file))) return file;
  return posix.join(pkg.dir, file);
}

function statusFor(counts: UnitCounts, outcome: CommandOutcome): TestStatus {
  if (counts.failed > 0) return 'failed';
  if (outcome.status !== 'passed' && outcome.status !== 'failed' && outcome.status !== 'no_tests') return outcome.status;
  return counts.passed > 0 ? 'passed' : 'no_tests';
}

function ownResult(pkg: WorkspacePackage, group: GroupRun, outcome: CommandOutcome, ctx: Context): PackageResult {
  const report = outcome.report;
  const counted = report !== undefined && !report.uncounted;
  const fingerprint = ctx.packageFingerprints?.get(pkg.dir);
  return {
    name: pkg.name,
    dir: pkg.dir,
    command: group.command,
    status: outcome.status,
    passed: counted ? report.passed : 0,
    failed: counted ? report.failed : 0,
    skipped: counted ? report.skipped : 0,
    exitCode: outcome.exitCode,
    durationMs: outcome.durationMs,
    ...(counted ? { format: report.format } : {}),
    ...(outcome.problem !== undefined ? { problem: outcome.problem } : {}),
    ...(fingerprint !== undefined ? { fingerprint } : {}),
    ranNow: true,
  };
}

/** Per-package results of a command that tested several packages, from its per-unit counts. */
function sharedResults(layout: WorkspaceLayout, part: Part & { outcome: CommandOutcome }, failures: readonly TestFailure[], ctx: Context): PackageResult[] {
  const report = part.outcome.report;
  const counts = new Map<WorkspacePackage, UnitCounts>();
  const bucket = (pkg: WorkspacePackage): UnitCounts => counts.get(pkg) ?? (counts.set(pkg, { passed: 0, failed: 0, skipped: 0 }).get(pkg) as UnitCounts);
  for (const pkg of part.group.packages) bucket(pkg);
  for (const unit of report?.units ?? []) {
    const pkg = owner(layout, part.group, ctx.root, { ...(unit.crate !== undefined ? { crate: unit.crate } : {}), ...(unit.file !== undefined ? { file: rootRelative(unit.file, part.group.dir, ctx.root) } : {}) });
    if (!pkg) continue;
    const c = bucket(pkg);
    c.passed += unit.passed;
    c.failed += unit.failed;
    c.skipped += unit.skipped;
  }
  for (const f of failures) {
    const pkg = layout.packages.find((p) => p.name === f.package);
    if (pkg && !report?.units?.length) bucket(pkg).failed += 1;
  }
  return [...counts.entries()].map(([pkg, c]) => {
    const own = ownResult(pkg, part.group, part.outcome, ctx);
    const status = report === undefined || report.uncounted ? part.outcome.status : statusFor(c, part.outcome);
    return { ...own, ...(report && !report.uncounted ? c : {}), status };
  });
}

export function packageResults(parts: readonly Part[], ctx: Context): { packages: PackageResult[]; failures: TestFailure[] } {
  const packages: PackageResult[] = [];
  const failures: TestFailure[] = [];
  for (const part of parts) {
    const outcome = part.outcome;
    if (!outcome) continue;
    const own: TestFailure[] = [];
    for (const raw of outcome.report?.failures ?? []) {
      const file = rootRelative(raw.file, part.group.dir, ctx.root);
      const { package: hint, ...failure } = raw;
      const pkg = ctx.layout ? owner(ctx.layout, part.group, ctx.root, { ...(hint !== undefined ? { package: hint } : {}), ...(file !== undefined ? { file } : {}) }) : undefined;
      const placed = fileIn(pkg, file, part.group, ctx.root);
      own.push({ ...failure, ...(placed !== undefined ? { file: placed } : {}), ...(pkg ? { package: pkg.name } : {}) });
    }
    failures.push(...own);
    if (!ctx.layout) continue;
    const single = part.group.packages.length === 1 ? part.group.packages[0] : undefined;
    if (single) packages.push(ownResult(single, part.group, outcome, ctx));
    else packages.push(...sharedResults(ctx.layout, { ...part, outcome }, own, ctx));
  }
  return { packages, failures };
}

