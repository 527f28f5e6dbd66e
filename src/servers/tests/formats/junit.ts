/**
 * JUnit XML: what pytest writes with `--junitxml=F -o junit_family=xunit1` (the family that keeps
 * `file` and a 0-based `line` per test case), and what many other runners print or write (node's
 * `junit` reporter, jest-junit, ...). `<testcase>` elements with `<failure>`/`<error>`/`<skipped>`
 * children; pytest's failure body is a `--tb=short` traceback whose `path:N: in fn` lines give the
 * failing line and whose `message` attribute keeps the assertion's expected/actual lines.
 */
import type { ParsedTestReport, TestFailure } from '../testResult';
import { cleanMessage, displayPath, isEmptyFileEntry, isStackFrame, stackLocation } from './failureText';

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, '&');
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match?.[1] === undefined ? undefined : decodeEntities(match[1]);
}

/** `tests.test_cart.TestGroup` + `tests/test_cart.py` -> `TestGroup`: what pytest's node id adds to the path. */
function classPart(classname: string, file: string): string {
  const module = file.replace(/\.py$/, '').split('/').join('.');
  if (classname === module) return '';
  return classname.startsWith(`${module}.`) ? classname.slice(module.length + 1) : '';
}

/** The last `path:N: in fn` line of a short traceback that is in the test's own file. */
function tracebackLine(body: string, file: string): number | undefined {
  let line: number | undefined;
  for (const match of body.matchAll(/^(\S[^\n]*?):(\d+): (?:in |\w)/gm)) if (match[1] === file) line = Number(match[2]);
  return line;
}

function bodyMessage(body: string): string {
  const lines = cleanMessage(body).split('\n');
  const end = lines.findIndex((l) => isStackFrame(l));
  return cleanMessage((end < 0 ? lines : lines.slice(0, end)).join('\n'));
}

/** deno names the file only in `classname` (`./test/cart_test.js`). */
const PATH_LIKE = /^\.{0,2}\/|\.[cm]?[jt]sx?$/;

function caseFailure(tag: string, kind: string, failureTag: string, body: string, root: string, format: string): TestFailure {
  const name = attribute(tag, 'name') ?? '(unnamed test)';
  const rawClass = attribute(tag, 'classname');
  const rawFile = attribute(tag, 'file') ?? (rawClass && PATH_LIKE.test(rawClass) ? rawClass : undefined);
  const classname = rawClass && PATH_LIKE.test(rawClass) ? undefined : rawClass;
  const file = rawFile ? displayPath(root, rawFile) : undefined;
  const declared = Number(attribute(tag, 'line'));
  const text = decodeEntities(body.replace(/<!\[CDATA\[|\]\]>/g, ''));
  const attr = attribute(failureTag, 'message');
  let message = attr !== undefined && (attr.includes('\n') || text.trim() === '') ? cleanMessage(attr) : bodyMessage(text) || cleanMessage(attr ?? '');
  // An error's attribute says where it happened (`failed on setup with ...`); its body says what.
  if (kind === 'error' && attr && !attr.includes('\n') && !message.startsWith(attr)) message = `${cleanMessage(attr)}\n${message}`;
  // pytest's `line` is 0-based (xunit1); bun's and deno's are 1-based, and their stack names the assertion.
  const thrownAt = file ? stackLocation(text, root, file) : undefined;
  const fromStack = thrownAt?.file === file ? thrownAt?.line : undefined;
  const base = format === 'pytest-junit' ? 1 : 0;
  const line = file ? (tracebackLine(text, file) ?? fromStack ?? (Number.isInteger(declared) && declared >= 0 ? declared + base : undefined)) : undefined;
  let fullName = classname && classname !== name ? `${classname} > ${name}` : name;
  if (file?.endsWith('.py') && classname) fullName = [file, classPart(classname, file), name].filter((p) => p !== '').join('::');
  return {
    name: fullName,
    ...(file ? { file } : {}),
    ...(line !== undefined ? { line } : {}),
    message,
  };
}

export function parseJunit(output: string, root: string, format = 'junit'): ParsedTestReport | undefined {
  if (!/<testsuites?[\s>]/.test(output)) return undefined;
  // A report with suites but no test case is a run that executed nothing (pytest's "no tests ran").
  if (!/<testcase[\s>]/.test(output)) return /<testsuites?\b[^>]*\btests="0"/.test(output) ? { format, passed: 0, failed: 0, skipped: 0, failures: [] } : undefined;
  const failures: TestFailure[] = [];
  let passed = 0;
  let skipped = 0;
  let erroredFailures = 0;
  for (const match of output.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const tag = match[1] ?? '';
    const body = match[3] ?? '';
    const problems = [...body.matchAll(/<(failure|error)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/\1>)/g)];
    if (problems.length === 0) {
      const name = /\bname="([^"]*)"/.exec(tag)?.[1];
      if (match[2] === '/>' && name !== undefined && isEmptyFileEntry(root, name)) continue;
      if (/<skipped\b/.test(body)) skipped++;
      else passed++;
      continue;
    }
    // pytest reports a test that failed and then errored in teardown twice; it is one failing test.
    erroredFailures += problems.length - 1;
    for (const p of problems) {
      const failure = caseFailure(tag, p[1] ?? 'failure', p[2] ?? '', p[3] ?? '', root, format);
      // A failure that says nothing (CTest's `<failure message=""/>`): what the test printed says why.
      const printed = failure.message === '' ? /<system-(?:out|err)>([\s\S]*?)<\/system-(?:out|err)>/.exec(body)?.[1] : undefined;
      failures.push(printed ? { ...failure, message: cleanMessage(decodeEntities(printed.replace(/<!\[CDATA\[|\]\]>/g, ''))) } : failure);
    }
  }
  return { format, passed, failed: failures.length - erroredFailures, skipped, failures };
}
