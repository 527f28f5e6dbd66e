/**
 * JUnit XML (what most runners can emit: `node --test --test-reporter=junit`, `pytest --junitxml`,
 * jest-junit, ...): `<testcase>` elements with `<failure>` or `<error>` children.
 */
import { firstLines, type ParsedTestReport, type TestFailure } from './testReport';

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match?.[1] === undefined ? undefined : decodeEntities(match[1]);
}

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, '&');
}

export function parseJunit(output: string): ParsedTestReport | undefined {
  if (!/<testsuites?[\s>]/.test(output) || !/<testcase[\s>]/.test(output)) return undefined;
  const failures: TestFailure[] = [];
  let passed = 0;
  const cases = output.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g);
  for (const match of cases) {
    const tag = match[1] ?? '';
    const body = match[3] ?? '';
    if (/<skipped\b/.test(body)) continue;
    const failure = /<(failure|error)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/\1>)/.exec(body);
    if (!failure) {
      passed++;
      continue;
    }
    const name = attribute(tag, 'name') ?? '(unnamed test)';
    const classname = attribute(tag, 'classname');
    const message = attribute(failure[2] ?? '', 'message') ?? decodeEntities((failure[3] ?? '').replace(/<!\[CDATA\[|\]\]>/g, ''));
    failures.push({ name: classname && classname !== name ? `${classname} > ${name}` : name, message: firstLines(message) });
  }
  return { format: 'junit', passed, failed: failures.length, failures };
}
