/**
 * Turns a test command's output into counts and failing tests by trying each known format, most
 * specific first. Undefined when nothing matched: the caller then shows the output's tail instead.
 */
import { parseJunit } from './junitParser';
import { parseGoTest, parseJestOrVitest, parseNodeSpec, parsePytest, parseSummary } from './runnerParsers';
import { parseTap } from './tapParser';
import { stripAnsi, type ParsedTestReport } from './testReport';

const PARSERS: ((output: string) => ParsedTestReport | undefined)[] = [
  parseJunit,
  parseNodeSpec,
  parseJestOrVitest,
  parsePytest,
  parseTap,
  parseGoTest,
  parseSummary,
];

export function parseTestOutput(rawOutput: string): ParsedTestReport | undefined {
  const output = stripAnsi(rawOutput).replace(/\r\n?/g, '\n');
  for (const parse of PARSERS) {
    const report = parse(output);
    if (report && (report.passed > 0 || report.failed > 0 || report.failures.length > 0)) return report;
  }
  return undefined;
}
