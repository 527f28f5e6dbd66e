/**
 * Node's built-in test runner's `spec` reporter (later Nodes' default; its TAP is read by tap.ts):
 * the failing-tests section with each failure's block, the suite paths from the tree above it, the
 * `test at file:line:col` lines, inspected expected/actual values, and the `ℹ pass N` totals. A test
 * file that does not load prints its error before its `✖ <file>` line; that becomes its message.
 */
import type { ParsedTestReport, TestFailure } from '../testResult';
import { cleanMessage, displayPath, isEmptyFileEntry, lastCount, stackLocation, withExpectedActual, type Location } from './failureText';
import { locationField, unquote } from './tap';

/** The inspected error object a spec failure ends with: `actual: 7,` / `expected: 6,` lines. */
function inspectedValue(block: readonly string[], key: string): string | undefined {
  for (const line of block) {
    const match = new RegExp(`^\\s*${key}: (.*?),?$`).exec(line);
    if (match?.[1] !== undefined && !/[[{]$/.test(match[1])) return unquote(match[1]);
  }
  return undefined;
}

/** What a test file that failed to load printed before its first `✖ <file>` line (spec only says 'test failed'). */
function printedBefore(output: string, name: string): string {
  const lines = output.split('\n');
  const at = lines.findIndex((l) => l.startsWith(`✖ ${name} (`) || l === `✖ ${name}`);
  const out: string[] = [];
  for (let i = at - 1; i >= 0 && !/^\s*[✔✖▶ℹ﹣]/.test(lines[i] ?? ''); i--) out.unshift(lines[i] ?? '');
  return out.join('\n');
}

function specFailure(block: readonly string[], name: string, declared: Location | undefined, root: string): TestFailure {
  const objectStart = block.findIndex((l) => /\{\s*$/.test(l) && /^\s+at /.test(l));
  const messageLines = block.slice(0, objectStart < 0 ? block.length : objectStart);
  const at = stackLocation(block.join('\n'), root, declared?.file);
  const message = withExpectedActual(
    cleanMessage(messageLines.join('\n')),
    inspectedValue(block, 'expected'),
    inspectedValue(block, 'actual'),
  );
  const location = at ?? declared;
  return { name, ...(location ? { file: location.file, line: location.line } : {}), message };
}

/**
 * Full names (`suite > test`) of the failing tests in the spec reporter's tree, keyed by the leaf
 * line (`✖ name (1.3ms)`, repeated verbatim in the failing-tests section, which has no suite path).
 */
function specSuitePaths(tree: string): Map<string, string> {
  const paths = new Map<string, string>();
  const open: { indent: number; name: string }[] = [];
  for (const line of tree.split('\n')) {
    const entry = /^(\s*)([▶✖])\s(.+?)(?: \(([\d.]+m?s)\))?$/.exec(line);
    if (!entry) continue;
    const indent = entry[1]?.length ?? 0;
    while (open.length > 0 && (open[open.length - 1]?.indent ?? 0) >= indent) open.pop();
    if (entry[2] === '▶') {
      if (entry[4] === undefined) open.push({ indent, name: entry[3] ?? '' });
      continue;
    }
    if (entry[4] !== undefined) paths.set(`${entry[3]} (${entry[4]})`, [...open.map((o) => o.name), entry[3]].join(' > '));
  }
  return paths;
}

/** Top-level `✔ <file>` lines with no suite opened under that name: files in which no test ran. */
function emptyFileEntries(output: string, root: string): number {
  const opened = new Set<string>();
  let count = 0;
  for (const line of output.split('\n')) {
    const suite = /^▶ (.+)$/.exec(line);
    if (suite?.[1] !== undefined) opened.add(suite[1]);
    const entry = /^✔ (.+?) \([\d.]+m?s\)$/.exec(line);
    if (entry?.[1] !== undefined && !opened.has(entry[1]) && isEmptyFileEntry(root, entry[1])) count++;
  }
  return count;
}

export function parseNodeSpec(output: string, root: string): ParsedTestReport | undefined {
  if (!/^ℹ pass \d+/m.test(output) || !/^ℹ fail \d+/m.test(output)) return undefined;
  const failures: TestFailure[] = [];
  const section = output.lastIndexOf('✖ failing tests:');
  if (section >= 0) {
    const lines = output.slice(section).split('\n').slice(1);
    const paths = specSuitePaths(output.slice(0, section));
    let declared: Location | undefined;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] ?? '';
      const testAt = /^test at (.*:\d+:\d+)$/.exec(line);
      if (testAt) declared = locationField(testAt[1], root);
      const head = /^✖ (.+?)(?: \(([\d.]+m?s)\))?$/.exec(line);
      if (!head) continue;
      const block: string[] = [];
      while (i + 1 < lines.length && !/^(?:test at |✖ |ℹ )/.test(lines[i + 1] ?? '')) block.push(lines[++i] ?? '');
      const name = head[1] ?? '';
      const full = head[2] ? paths.get(`${name} (${head[2]})`) : undefined;
      const failure = specFailure(block, full ?? (name.startsWith('/') ? displayPath(root, name) : name), declared, root);
      if (failure.message === "'test failed'") failure.message = cleanMessage(printedBefore(output, name)) || failure.message;
      failures.push(failure);
      declared = undefined;
    }
  }
  return {
    format: 'node-spec',
    passed: Math.max(0, (lastCount(output, 'ℹ pass') ?? 0) - emptyFileEntries(output, root)),
    failed: lastCount(output, 'ℹ fail') ?? 0,
    skipped: (lastCount(output, 'ℹ skipped') ?? 0) + (lastCount(output, 'ℹ todo') ?? 0),
    failures,
  };
}
