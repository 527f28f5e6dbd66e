/**
 * TAP, including node's built-in test runner (its default reporter when output is not a terminal):
 * `not ok N - name` lines at any nesting depth, YAML diagnostics with `error:`, and `# pass N` /
 * `# fail N` totals. Suites that fail only because a subtest failed are not listed twice.
 */
import { firstLines, lastNumber, type ParsedTestReport, type TestFailure } from './testReport';

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

/** Reads the YAML block after a `not ok` line: its `error` message and whether it is a suite roll-up. */
function readDiagnostics(lines: readonly string[], from: number): { message: string; rollup: boolean } {
  let message = '';
  let rollup = false;
  if (!/^\s*---\s*$/.test(lines[from] ?? '')) return { message, rollup };
  for (let i = from + 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (/^\s*\.\.\.\s*$/.test(line)) break;
    if (/failureType: '?subtestsFailed/.test(line)) rollup = true;
    const error = /^(\s*)(?:error|message): ?(.*)$/.exec(line);
    if (!error || message !== '') continue;
    const indent = error[1]?.length ?? 0;
    const value = error[2] ?? '';
    if (/^[|>][-+]?$/.test(value.trim())) {
      const block: string[] = [];
      for (let j = i + 1; j < lines.length && ((lines[j] ?? '').search(/\S/) > indent || (lines[j] ?? '').trim() === ''); j++) block.push(lines[j] ?? '');
      message = block.join('\n');
    } else message = unquote(value);
  }
  return { message, rollup };
}

export function parseTap(output: string): ParsedTestReport | undefined {
  if (!/^\s*(?:TAP version \d+|(?:not )?ok \d+)/m.test(output)) return undefined;
  const lines = output.split('\n');
  const failures: TestFailure[] = [];
  let okCount = 0;
  let notOkCount = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const result = /^\s*(not ok|ok) \d+(?: -)? ?(.*?)(\s+#\s*(SKIP|TODO).*)?$/i.exec(line);
    if (!result) continue;
    if (result[1] === 'ok') {
      okCount++;
      continue;
    }
    if (result[4]) continue;
    const { message, rollup } = readDiagnostics(lines, i + 1);
    if (rollup) continue;
    notOkCount++;
    failures.push({ name: result[2] || '(unnamed test)', message: firstLines(message) });
  }
  const passed = lastNumber(output, /^# pass (\d+)/gm) ?? okCount;
  const failed = lastNumber(output, /^# fail (\d+)/gm) ?? notOkCount;
  return { format: 'tap', passed, failed, failures };
}
