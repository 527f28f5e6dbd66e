/**
 * `go test -json`: one JSON event per line (`run`/`output`/`pass`/`fail`/`skip` per package and
 * test). Counts are of leaf tests (a parent whose subtest failed is not counted twice); a failing
 * test's message is its own output (`file_test.go:7: got 7, want 6`), whose file is made relative to
 * the root through the module path in go.mod. Build errors (plain text before Go 1.24, `build-output`
 * events after) become failures with their file and line. Plain `go test` text is read as well.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ParsedTestReport, TestFailure } from '../testResult';
import { cleanMessage, displayPath } from './failureText';

interface GoEvent {
  Action?: string;
  Package?: string;
  ImportPath?: string;
  Test?: string;
  Output?: string;
}

interface TestState {
  pkg: string;
  test?: string;
  action?: string;
  output: string[];
}

function modulePath(root: string): string | undefined {
  try {
    return /^module\s+(\S+)/m.exec(readFileSync(join(root, 'go.mod'), 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}

function packageDir(pkg: string, module: string | undefined): string {
  if (module && pkg === module) return '';
  return module && pkg.startsWith(`${module}/`) ? `${pkg.slice(module.length + 1)}/` : '';
}

function readEvents(output: string): { events: GoEvent[]; text: string[] } {
  const events: GoEvent[] = [];
  const text: string[] = [];
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) {
      text.push(line);
      continue;
    }
    try {
      const event = JSON.parse(line) as GoEvent;
      if (event.Action === 'build-output') text.push((event.Output ?? '').replace(/\n$/, ''));
      else events.push(event);
    } catch {
      text.push(line);
    }
  }
  return { events, text };
}

function testFailure(state: TestState, module: string | undefined, root: string): TestFailure {
  const lines = state.output
    .join('')
    .split('\n')
    .filter((l) => !/^\s*(?:=== (?:RUN|PAUSE|CONT|NAME)|--- (?:FAIL|PASS|SKIP):)|^(?:FAIL|PASS|ok)\b/.test(l));
  const at = lines.map((l) => /^\s*([\w./-]+\.go):(\d+):/.exec(l)).find((m) => m !== null);
  const file = at?.[1] ? displayPath(root, `${packageDir(state.pkg, module)}${at[1]}`) : undefined;
  const name = state.test ? `${state.pkg} ${state.test}` : `${state.pkg} (package failed)`;
  return { name, ...(file ? { file, line: Number(at?.[2]) } : {}), message: cleanMessage(lines.join('\n')) };
}

function buildErrors(text: readonly string[], root: string): TestFailure[] {
  return text
    .map((l) => /^([\w./-]+\.go):(\d+):\d+: (.+)$/.exec(l))
    .filter((m) => m !== null)
    .map((m) => ({ name: `build error: ${m[3]}`, file: displayPath(root, m[1] ?? ''), line: Number(m[2]), message: m[3] ?? '' }));
}

export function parseGoJson(output: string, root: string): ParsedTestReport | undefined {
  const { events, text } = readEvents(output);
  if (!events.some((e) => e.Action !== undefined && e.Package !== undefined)) return undefined;
  const states = new Map<string, TestState>();
  for (const e of events) {
    const key = `${e.Package ?? ''}\0${e.Test ?? ''}`;
    const state = states.get(key) ?? { pkg: e.Package ?? '', ...(e.Test ? { test: e.Test } : {}), output: [] };
    states.set(key, state);
    if (e.Action === 'output') state.output.push(e.Output ?? '');
    else if (e.Action === 'pass' || e.Action === 'fail' || e.Action === 'skip') state.action = e.Action;
  }
  const tests = [...states.values()].filter((s) => s.test !== undefined);
  const isParent = (s: TestState): boolean => tests.some((o) => o.pkg === s.pkg && o.test?.startsWith(`${s.test}/`));
  const leaves = tests.filter((s) => !isParent(s));
  const module = modulePath(root);
  const failures = leaves.filter((s) => s.action === 'fail').map((s) => testFailure(s, module, root));
  const failedPackages = [...states.values()].filter((s) => s.test === undefined && s.action === 'fail' && !tests.some((t) => t.pkg === s.pkg && t.action === 'fail'));
  const buildBroken = buildErrors(text, root);
  for (const pkg of failedPackages) if (buildBroken.length === 0) failures.push(testFailure(pkg, module, root));
  return {
    format: 'go-json',
    passed: leaves.filter((s) => s.action === 'pass').length,
    failed: failures.length,
    skipped: leaves.filter((s) => s.action === 'skip').length,
    failures: [...failures, ...buildBroken],
  };
}

export function parseGoText(output: string, root: string): ParsedTestReport | undefined {
  if (!/^(?:--- (?:FAIL|PASS)|ok\s+\S+\s|FAIL\s+\S+\s)/m.test(output)) return undefined;
  const lines = output.split('\n');
  const failures: TestFailure[] = [];
  lines.forEach((line, i) => {
    const head = /^(\s*)--- FAIL: (\S+)/.exec(line);
    if (!head) return;
    const own: string[] = [];
    for (let j = i + 1; j < lines.length && /^\s+\S/.test(lines[j] ?? '') && !/^\s*--- /.test(lines[j] ?? ''); j++) own.push(lines[j] ?? '');
    const nested = lines[i + 1]?.trimStart().startsWith('--- FAIL') === true;
    if (nested && own.length === 0) return;
    const at = own.map((l) => /^\s*([\w./-]+\.go):(\d+):/.exec(l)).find((m) => m !== null);
    failures.push({ name: head[2] ?? '', ...(at?.[1] ? { file: at[1], line: Number(at[2]) } : {}), message: cleanMessage(own.join('\n')) });
  });
  const passed = (output.match(/^\s*--- PASS/gm) ?? []).length;
  const skipped = (output.match(/^\s*--- SKIP/gm) ?? []).length;
  const built = buildErrors(lines, root);
  if (failures.length === 0 && passed === 0 && built.length === 0 && !/^FAIL\s/m.test(output)) return undefined;
  return { format: 'go', passed, failed: failures.length, skipped, failures: [...failures, ...built] };
}
