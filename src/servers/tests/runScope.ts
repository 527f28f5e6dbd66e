/**
 * Which packages a run tests. The whole plan by default; after an edit in a monorepo only the
 * packages whose files changed and the packages that depend on them (from the workspace's own
 * dependency graph), with every other package's last result carried over: its files, and those of
 * everything it depends on, are as they were when it ran. A change to files in no package (root
 * manifests, configs, the lockfile), a different command or a package that did not end in a verdict
 * (could not run, timed out) means the whole plan again.
 */
import { planSuite, type SuitePlan } from './suitePlan';
import type { PackageResult, TestFailure, TestRunResult } from './testResult';
import { withDependants, type WorkspaceLayout } from './workspaceLayout';
import { REST, type WorkspaceState } from './workspaceFingerprint';

export interface RunScope {
  plan: SuitePlan;
  carried?: { packages: PackageResult[]; failures: TestFailure[] };
  /** The packages run, when fewer than all. */
  checked?: string[];
}

const SETTLED = new Set(['passed', 'failed', 'no_tests']);

export function runScope(root: string, command: string, layout: WorkspaceLayout | undefined, state: WorkspaceState, last: TestRunResult | undefined): RunScope {
  const plan = planSuite(root, command, layout);
  if (plan.kind !== 'packages' || !layout || !last?.packages || last.command !== command || last.restFingerprint !== state.parts.get(REST)) return { plan };
  const previous = new Map(last.packages.map((p) => [p.dir, p]));
  const changed = layout.packages.filter((p) => {
    const before = previous.get(p.dir);
    if (!before) return plan.runs.some((r) => r.packages.includes(p));
    return before.fingerprint !== state.parts.get(p.dir) || !SETTLED.has(before.status);
  });
  const affected = withDependants(layout, new Set(changed.map((p) => p.name)));
  if (layout.packages.every((p) => affected.has(p.name))) return { plan };
  return {
    plan: planSuite(root, command, layout, affected),
    carried: {
      packages: last.packages.filter((p) => !affected.has(p.name)).map((p) => ({ ...p, ranNow: false })),
      failures: last.failures.filter((f) => f.package !== undefined && !affected.has(f.package)),
    },
    checked: layout.packages.filter((p) => affected.has(p.name)).map((p) => p.name),
  };
}
