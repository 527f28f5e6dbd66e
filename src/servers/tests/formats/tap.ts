/**
 * TAP, as the runners that print it write it: node's test runner (Node 20's default into a pipe),
 * ava `--tap`, node-tap `--reporter=tap` and tape. Nesting (`# Subtest:` lines, indented four spaces
 * a level) becomes `suite > test` names; a `not ok` whose own subtests failed is a roll-up, not a
 * failure of its own (node marks it `subtestsFailed`, node-tap's files and tests do not); each failure's
 * YAML block gives its location (`location`, or `at` as a frame or as node-tap's `fileName`/
 * `lineNumber` map), its message (`error`, `message`, `diff`, ava's `details`) and expected/actual.
 * Totals: `# pass N` / `# fail N` / `# skip(ped) N` / `# todo N`, or node-tap's `# { total, pass, fail,
 * skip }`. tape counts assertions there, so its tests are counted from the `# name` lines that open
 * them. A file that does not load shows as a failing subtest named after the file, its error printed
 * as `#` comments just before; those comments become its message.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ParsedTestReport, TestFailure } from '../testResult';
import { cleanMessage, displayPath, isEmptyFileEntry, lastCount, stackLocation, withExpectedActual, type Location } from './failureText';

export function unquote(value: string): string {
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

/** The YAML block after a result line: scalar fields, and block or nested values as their text. */
function readYaml(lines: readonly string[], from: number): Diagnostics {
  const fields = new Map<string, string>();
  if (!/^\s*---\s*$/.test(lines[from] ?? '')) return { fields, end: from };
  // ava and tape indent the fields two spaces past the `---`; node and node-tap do not.
  const indent = (lines.slice(from + 1).find((l) => l.trim() !== '') ?? '').search(/\S/);
  let i = from + 1;
  for (; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (/^\s*\.\.\.\s*$/.test(line)) break;
    const field = /^(\s*)([A-Za-z_]+):(?: (.*))?$/.exec(line);
    if (!field || (field[1]?.length ?? 0) !== indent) continue;
    const value = field[3] ?? '';
    if (value.trim() === '' || /^[|>][-+]?$/.test(value.trim())) {
      const block: string[] = [];
      while (i + 1 < lines.length && ((lines[i + 1] ?? '').search(/\S/) > indent || (lines[i + 1] ?? '').trim() === '')) block.push(lines[++i] ?? '');
      const text = value.trim().startsWith('>') ? block.map((l) => l.trim()).join(' ') : block.join('\n');
      fields.set(field[2] ?? '', text);
    } else fields.set(field[2] ?? '', unquote(value));
  }
  return { fields, end: i };
}

export function locationField(value: string | undefined, root: string): Location | undefined {
  const match = /^(.*):(\d+):\d+$/.exec(value ?? '');
  return match?.[1] ? { file: displayPath(root, match[1]), line: Number(match[2]) } : undefined;
}

/** node-tap's `at:` map (`fileName:` / `lineNumber:`), or a frame (`Test.<anonymous> (/p/t.js:5:5)`). */
function atLocation(at: string | undefined, root: string): Location | undefined {
  if (!at) return undefined;
  const file = /fileName: (.+)/.exec(at)?.[1];
  const line = /lineNumber: (\d+)/.exec(at)?.[1];
  if (file && line) return { file: displayPath(root, unquote(file)), line: Number(line) };
  return stackLocation(`    at ${at.trim()}`, root);
}

/** `#` comment lines right before `# Subtest:` at line `at`: what a file that failed to load printed. */
function commentsBefore(lines: readonly string[], at: number): string {
  const out: string[] = [];
  for (let i = at - 1; i >= 0 && /^# /.test(lines[i] ?? '') && !/^# Subtest:/.test(lines[i] ?? ''); i--) out.unshift((lines[i] ?? '').slice(2));
  return out.join('\n');
}

function messageOf(f: Map<string, string>): string {
  const details = f.get('details');
  const parts = [f.get('error') ?? (f.get('message') || undefined) ?? f.get('assertion'), f.get('diff'), details && /^\s*'?[^\n]*'?:/.test(details) ? details.replace(/^\s*'([^']*)':\s*\|-?/m, '$1') : undefined];
  return cleanMessage(parts.filter((p): p is string => p !== undefined && p.trim() !== '').join('\n'));
}

function tapFailure(lines: readonly string[], name: string, root: string, yaml: Diagnostics, subtestLine: number): TestFailure {
  const f = yaml.fields;
  const declared = locationField(f.get('location'), root) ?? atLocation(f.get('at'), root);
  const at = stackLocation(f.get('stack') ?? '', root, declared?.file);
  const scalar = (key: string): string | undefined => (f.has(key) && f.get(key) !== '' && !(f.get(key) ?? '').includes('\n') ? f.get(key) : undefined);
  let message = messageOf(f);
  if (/^test failed$|^'test failed'$/.test(message) && subtestLine >= 0) message = cleanMessage(commentsBefore(lines, subtestLine)) || message;
  message = withExpectedActual(message, scalar('expected'), scalar('actual'));
  const location = at ?? declared;
  return { name, ...(location && !location.file.startsWith('/') ? { file: location.file, line: location.line } : {}), message };
}

/** ava titles start with the test file (`cart › ...` for test/cart.test.js): find it, since its TAP names no file. */
function avaFile(name: string, root: string): string | undefined {
  const stem = /^(.+?) › /.exec(name)?.[1];
  if (!stem) return undefined;
  const candidates = ['test', 'tests', '__tests__', 'src', ''].flatMap((d) => ['.test.js', '.spec.js', '.js', '.test.mjs', '.mjs', '.cjs', '.test.ts', '.ts'].map((ext) => join(d, `${stem}${ext}`)));
  return candidates.find((c) => existsSync(join(root, c)));
}

function summaryCounts(output: string): { pass?: number; fail?: number; skip?: number; todo?: number } {
  const tapSummary = [...output.matchAll(/^# \{ total: \d+, (.*) \}$/gm)].pop()?.[1];
  if (tapSummary) {
    const n = (key: string): number => Number(new RegExp(`\\b${key}: (\\d+)`).exec(tapSummary)?.[1] ?? 0);
    return { pass: n('pass'), fail: n('fail'), skip: n('skip'), todo: n('todo') };
  }
  const total = (key: string): number | undefined => lastCount(output, `#\\s+${key}\\s*`);
  return { pass: total('pass'), fail: total('fail'), skip: total('skipped') ?? total('skip'), todo: total('todo') };
}

/** A totals line of tape or node's TAP (`# suites 0`, `# duration_ms 51`): never a test's name. */
const NODE_TOTALS = /^(?:tests|pass|fail|skip|skipped|todo|ok|suites|cancelled|duration_ms)\b/;

export function parseTap(output: string, root: string): ParsedTestReport | undefined {
  if (!/^\s*(?:TAP version \d+|(?:not )?ok \d+)/m.test(output)) return undefined;
  if (/^# tests \d+$/m.test(output) && !/^\s*# Subtest:/m.test(output) && /^# (?!(?:tests|pass|fail|skip|todo|suites|cancelled|duration_ms|skipped) )\S/m.test(output)) return parseTape(output, root);
  const lines = output.split('\n');
  const failures: TestFailure[] = [];
  const open: { name: string; line: number }[] = [];
  const childFailed: boolean[] = [];
  let ok = 0;
  let notOk = 0;
  let skipped = 0;
  let emptyFiles = 0;
  let resultsInside = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const level = Math.floor(line.search(/\S/) / 4);
    const subtest = /^\s*# Subtest: (.*)$/.exec(line);
    if (subtest) {
      if (level === 0) resultsInside = 0;
      open.length = level;
      open[level] = { name: subtest[1] ?? '', line: i };
      childFailed[level + 1] = false;
      continue;
    }
    const result = /^\s*(not ok|ok) \d+(?: -)? ?(.*?)(\s+#\s*(SKIP|TODO).*)?$/i.exec(line);
    if (!result) continue;
    if (level > 0) resultsInside++;
    else if (result[1] === 'ok' && !result[4] && resultsInside === 0 && isEmptyFileEntry(root, result[2] ?? '')) {
      emptyFiles++;
      continue;
    }
    if (result[4]) skipped++;
    else if (result[1] === 'ok') ok++;
    if (result[1] === 'ok' || result[4]) continue;
    const yaml = readYaml(lines, i + 1);
    const rollUp = /subtestsFailed/.test(yaml.fields.get('failureType') ?? '') || childFailed[level + 1] === true;
    childFailed[level] = true;
    childFailed[level + 1] = false;
    i = yaml.end;
    if (rollUp) continue;
    notOk++;
    const leaf = (result[2] ?? '').replace(/\s+# time=.*$/, '') || '(unnamed test)';
    const name = [...open.slice(0, level).map((o) => o.name), leaf.startsWith('/') ? displayPath(root, leaf) : leaf].join(' > ');
    const failure = tapFailure(lines, name, root, yaml, open[level]?.line ?? -1);
    const file = failure.file ?? avaFile(name, root);
    failures.push(file && !failure.file ? { ...failure, file } : failure);
  }
  const totals = summaryCounts(output);
  const passed = totals.pass === undefined ? ok : Math.max(0, totals.pass - emptyFiles);
  return { format: 'tap', passed, failed: totals.fail ?? notOk, skipped: (totals.skip ?? skipped) + (totals.todo ?? 0), failures };
}

/**
 * tape: `# name` opens a test, its assertions follow as `ok`/`not ok` lines, and the closing
 * `# tests N` / `# pass N` count assertions. A test fails when any of its assertions does.
 */
export function parseTape(output: string, root: string): ParsedTestReport | undefined {
  const lines = output.split('\n');
  const tests = new Map<string, TestFailure | null>();
  let current = '(unnamed test)';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const head = /^# (.+)$/.exec(line);
    if (head && !NODE_TOTALS.test(head[1] ?? '')) {
      current = head[1] ?? current;
      if (!tests.has(current)) tests.set(current, null);
      continue;
    }
    const result = /^(not ok|ok) \d+ ?(.*?)(\s+#\s*(SKIP|TODO).*)?$/.exec(line);
    if (!result) continue;
    if (!tests.has(current)) tests.set(current, null);
    if (result[1] === 'ok' || result[4]) continue;
    const yaml = readYaml(lines, i + 1);
    i = yaml.end;
    if (tests.get(current)) continue;
    const failure = tapFailure(lines, current, root, yaml, -1);
    tests.set(current, { ...failure, message: cleanMessage(`${result[2] ?? ''}\n${failure.message}`) });
  }
  const failures = [...tests.values()].filter((f): f is TestFailure => f !== null);
  return { format: 'tape', passed: tests.size - failures.length, failed: failures.length, skipped: 0, failures };
}
