/**
 * Python's runners as text. pytest: the `FAILURES`/`ERRORS` sections (`___ name ___` headers, `E`
 * lines for the message, `path:N:` lines for the location, in `--tb=short` or the default long
 * form), the short summary (`FAILED node::id - msg`) for node ids, and the closing counts line.
 * unittest: `FAIL:`/`ERROR:` blocks with their tracebacks, `Ran N tests` and `FAILED (failures=...)`.
 */
import type { ParsedTestReport, TestFailure } from '../testResult';
import { cleanMessage, countOf, dedent, displayPath } from './failureText';

const SECTION_RULE = /^={3,} .* ={3,}\s*$/;
const ENTRY_HEAD = /^_{3,} (.+?) _{3,}\s*$/;
const PYTEST_MARKS = /^={3,} test session starts|^collected \d+ items?|^(?:FAILED|ERROR|PASSED) \S+::|^\S+\.py [.FEsxX]+|^[.FEsxX]+\s+\[\s*\d+%\]/m;

function pytestCounts(output: string): { passed: number; failed: number; skipped: number } | undefined {
  const closing = [...output.matchAll(/^(?:=+ )?((?:\d+ (?:passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?)(?:, )?)+) in [\d.]+s\b.*$/gm)].pop()?.[1];
  if (closing === undefined) return undefined;
  return {
    passed: countOf(closing, /(\d+) passed/) + countOf(closing, /(\d+) xpassed/),
    failed: countOf(closing, /(\d+) failed/) + countOf(closing, /(\d+) errors?/),
    skipped: countOf(closing, /(\d+) skipped/) + countOf(closing, /(\d+) xfailed/),
  };
}

/** A section entry's name (`TestGroup.test_x`, `ERROR at setup of test_y`) as a node id from the summary. */
function nodeIdFor(entry: string, summaryIds: readonly string[]): string | undefined {
  const bare = entry.replace(/^ERROR at (?:setup|teardown|call) of /, '');
  return summaryIds.find((id) => id.split('::').slice(1).join('.') === bare);
}

function entryFailure(entry: string, body: readonly string[], summaryIds: readonly string[], root: string): TestFailure {
  const id = nodeIdFor(entry, summaryIds);
  const locations = body.map((l) => /^(\S+\.py):(\d+):/.exec(l)).filter((m) => m !== null);
  const file = id ? id.split('::')[0] : locations[0]?.[1];
  const inFile = locations.filter((m) => m[1] === file);
  const errorLines = body.filter((l) => /^E {0,3}/.test(l) && l.startsWith('E')).map((l) => l.slice(1));
  const message = errorLines.length > 0 ? dedent(errorLines).join('\n') : body.filter((l) => l.trim() !== '').slice(-3).join('\n');
  return {
    name: id ?? entry,
    ...(file ? { file: displayPath(root, file) } : {}),
    ...(inFile.length > 0 ? { line: Number(inFile[inFile.length - 1]?.[2]) } : {}),
    message: cleanMessage(message),
  };
}

export function parsePytestText(output: string, root: string): ParsedTestReport | undefined {
  const counts = pytestCounts(output);
  if (!counts || !PYTEST_MARKS.test(output)) return undefined;
  const summary = [...output.matchAll(/^(FAILED|ERROR) (\S+::.+?)(?: - (.*))?$/gm)];
  const summaryIds = summary.map((m) => m[2] ?? '');
  const lines = output.split('\n');
  const failures: TestFailure[] = [];
  let inSection = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (SECTION_RULE.test(line)) inSection = /^=+ (FAILURES|ERRORS) =+/.test(line);
    const head = inSection ? ENTRY_HEAD.exec(line) : null;
    if (!head?.[1]) continue;
    const body: string[] = [];
    while (i + 1 < lines.length && !ENTRY_HEAD.test(lines[i + 1] ?? '') && !SECTION_RULE.test(lines[i + 1] ?? '')) body.push(lines[++i] ?? '');
    failures.push(entryFailure(head[1], body, summaryIds, root));
  }
  if (failures.length === 0) {
    for (const m of summary) failures.push({ name: m[2] ?? '', file: displayPath(root, (m[2] ?? '').split('::')[0] ?? ''), message: cleanMessage(m[3] ?? '') });
  }
  return { format: 'pytest-text', ...counts, failures };
}

/** The frame of the test method itself (`in test_x`), else the last frame inside the root. */
function unittestLocation(traceback: readonly string[], method: string, root: string): { file: string; line: number } | undefined {
  const frames = traceback
    .map((l) => /^\s*File "(.+)", line (\d+), in (\S+)/.exec(l))
    .filter((m) => m !== null)
    .map((m) => ({ file: displayPath(root, m[1] ?? ''), line: Number(m[2]), fn: m[3] }));
  const own = frames.filter((f) => !f.file.startsWith('/'));
  const chosen = own.filter((f) => f.fn === method).pop() ?? own.pop();
  return chosen ? { file: chosen.file, line: chosen.line } : undefined;
}

function unittestFailure(head: RegExpExecArray, block: readonly string[], root: string): TestFailure {
  const method = head[2] ?? '';
  const where = (head[3] ?? '').endsWith(`.${method}`) ? head[3] : `${head[3]}.${method}`;
  const at = unittestLocation(block, method, root);
  const lastFrame = block.reduce((last, l, i) => (/^\s+File "/.test(l) ? i : last), -1);
  let start = lastFrame + 1;
  while (start < block.length && /^\s/.test(block[start] ?? '')) start++;
  const message = cleanMessage(block.slice(start).join('\n'));
  return { name: `${where}${head[4] ? ` ${head[4]}` : ''}`, ...(at ?? {}), message };
}

export function parseUnittest(output: string, root: string): ParsedTestReport | undefined {
  const ran = /^Ran (\d+) tests? in [\d.]+s\s*$/m.exec(output);
  if (!ran) return undefined;
  const verdict = /^(?:FAILED|OK)(?: \((.*)\))?\s*$/m.exec(output.slice(ran.index))?.[1] ?? '';
  const lines = output.split('\n');
  const failures: TestFailure[] = [];
  for (let i = 0; i < lines.length; i++) {
    const head = /^(FAIL|ERROR): (\S+) \(([^)]+)\)(?: (\(.*\)))?\s*$/.exec(lines[i] ?? '');
    if (!head) continue;
    if (/^-{20,}$/.test(lines[i + 1] ?? '')) i++;
    const block: string[] = [];
    while (i + 1 < lines.length && !/^(?:={20,}|-{20,})$/.test(lines[i + 1] ?? '')) block.push(lines[++i] ?? '');
    failures.push(unittestFailure(head, block, root));
  }
  const failing = new Set(failures.map((f) => f.name.replace(/ \(.*\)$/, ''))).size;
  const skipped = countOf(verdict, /skipped=(\d+)/) + countOf(verdict, /expected failures=(\d+)/);
  const unexpected = countOf(verdict, /unexpected successes=(\d+)/);
  return {
    format: 'unittest',
    passed: Math.max(0, Number(ran[1]) - failing - skipped - unexpected),
    failed: countOf(verdict, /failures=(\d+)/) + countOf(verdict, /errors=(\d+)/) + unexpected,
    skipped,
    failures,
  };
}
