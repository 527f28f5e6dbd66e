/**
 * Node's built-in test runner, in both reporters it prints without being asked: TAP (Node 20's
 * default into a pipe) and `spec` (later Nodes' default). TAP gives nesting (`# Subtest:` lines, read
 * into `suite > test` names), a YAML block per failure (`location`, `error`, `expected`, `actual`,
 * `stack`) and `# pass N` totals; suites that fail only because a subtest failed are not listed twice.
 * A file that does not load shows as a failing subtest named after the file, its error printed as
 * `#` comments just before; those comments become its message.
 */
import type { ParsedTestReport, TestFailure } from '../testResult';
import { cleanMessage, displayPath, lastCount, stackLocation, withExpectedActual, type Location } from './failureText';

function unquote(value: string): string {
  const v = value.trim();
  if (v.startsWith("'") && v.endsWith("'")) return v.slice(1, -1).replace(/''/g, "'");
  if (v.startsWith('"') && v.endsWith('"')) {
    try {
      return JSON.parse(v) as string;
    } catch {
      return v.slice(1, -1);
    }
  }
  return v;
}

interface Diagnostics {
  fields: Map<string, string>;
  end: number;
}

/** The YAML block after a result line: scalar fields, and `|-` blocks joined (enough for node's keys). */
function readYaml(lines: readonly string[], from: number): Diagnostics {
  const fields = new Map<string, string>();
  if (!/^\s*---\s*$/.test(lines[from] ?? '')) return { fields, end: from };
  const indent = (lines[from] ?? '').search(/\S/);
  let i = from + 1;
  for (; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (/^\s*\.\.\.\s*$/.test(line)) break;
    const field = /^(\s*)([A-Za-z_]+):(?: (.*))?$/.exec(line);
    if (!field || (field[1]?.length ?? 0) !== indent) continue;
    const value = field[3] ?? '';
    if (/^[|>][-+]?$/.test(value.trim())) {
      const block: string[] = [];
      while (i + 1 < lines.length && ((lines[i + 1] ?? '').search(/\S/) > indent || (lines[i + 1] ?? '').trim() === '')) block.push(lines[++i] ?? '');
      fields.set(field[2] ?? '', block.join('\n'));
    } else fields.set(field[2] ?? '', value === '' ? '' : unquote(value));
  }
  return { fields, end: i };
}

function locationField(value: string | undefined, root: string): Location | undefined {
  const match = /^(.*):(\d+):\d+$/.exec(value ?? '');
  return match?.[1] ? { file: displayPath(root, match[1]), line: Number(match[2]) } : undefined;
}

/** `#` comment lines right before `# Subtest:` at line `at`: what a file that failed to load printed. */
function commentsBefore(lines: readonly string[], at: number): string {
  const out: string[] = [];
  for (let i = at - 1; i >= 0 && /^# /.test(lines[i] ?? '') && !/^# Subtest:/.test(lines[i] ?? ''); i--) out.unshift((lines[i] ?? '').slice(2));
  return out.join('\n');
}

function tapFailure(lines: readonly string[], i: number, name: string, root: string, yaml: Diagnostics, subtestLine: number): TestFailure {
  const f = yaml.fields;
  const declared = locationField(f.get('location'), root);
  const at = stackLocation(f.get('stack') ?? '', root, declared?.file);
  const scalar = (key: string): string | undefined => (f.has(key) && f.get(key) !== '' && !(f.get(key) ?? '').includes('\n') ? f.get(key) : undefined);
  let message = cleanMessage(f.get('error') ?? '');
  if (/^test failed$|^'test failed'$/.test(message) && subtestLine >= 0) message = cleanMessage(commentsBefore(lines, subtestLine)) || message;
  message = withExpectedActual(message, scalar('expected'), scalar('actual'));
  const location = at ?? declared;
  return { name, ...(location ? { file: location.file, line: location.line } : {}), message };
}

export function parseTap(output: string, root: string): ParsedTestReport | undefined {
  if (!/^\s*(?:TAP version \d+|(?:not )?ok \d+)/m.test(output)) return undefined;
  const lines = output.split('\n');
  const failures: TestFailure[] = [];
  const open: { name: string; line: number }[] = [];
  let ok = 0;
  let notOk = 0;
  let skipped = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const level = Math.floor(line.search(/\S/) / 4);
    const subtest = /^\s*# Subtest: (.*)$/.exec(line);
    if (subtest) {
      open.length = level;
      open[level] = { name: subtest[1] ?? '', line: i };
      continue;
    }
    const result = /^\s*(not ok|ok) \d+(?: -)? ?(.*?)(\s+#\s*(SKIP|TODO).*)?$/i.exec(line);
    if (!result) continue;
    if (result[4]) skipped++;
    else if (result[1] === 'ok') ok++;
    if (result[1] === 'ok' || result[4]) continue;
    const yaml = readYaml(lines, i + 1);
    if (/subtestsFailed/.test(yaml.fields.get('failureType') ?? '')) continue;
    notOk++;
    const leaf = result[2] || '(unnamed test)';
    const name = [...open.slice(0, level).map((o) => o.name), leaf.startsWith('/') ? displayPath(root, leaf) : leaf].join(' > ');
    failures.push(tapFailure(lines, i, name, root, yaml, open[level]?.line ?? -1));
    i = yaml.end;
  }
  const total = (key: string): number | undefined => lastCount(output, `# ${key}`);
  return {
    format: 'tap',
    passed: total('pass') ?? ok,
    failed: total('fail') ?? notOk,
    skipped: (total('skipped') ?? skipped) + (total('todo') ?? 0),
    failures,
  };
}

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
    passed: lastCount(output, 'ℹ pass') ?? 0,
    failed: lastCount(output, 'ℹ fail') ?? 0,
    skipped: (lastCount(output, 'ℹ skipped') ?? 0) + (lastCount(output, 'ℹ todo') ?? 0),
    failures,
  };
}
