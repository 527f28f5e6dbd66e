/**
 * `cargo test --no-fail-fast`: every test binary (unit tests, each `tests/*.rs`, doc-tests) prints
 * its own `test result:` line, and the suite's counts are their sum. Each binary's `failures:` list
 * names its failing tests; the `---- name stdout ----` blocks before it hold the panic, read in both
 * the current (`panicked at src/lib.rs:20:9:` then the message) and the pre-1.73 form
 * (`panicked at 'message', src/lib.rs:20:9`). Compile errors (`error[E..]` with `--> file:line`)
 * are listed too, so a build that breaks says where.
 */
import type { ParsedTestReport, TestFailure, UnitCounts } from '../testResult';
import { cleanMessage, displayPath } from './failureText';

interface Panic {
  message: string;
  file?: string;
  line?: number;
}

/** The panic in one `---- name stdout ----` block. */
function readPanic(block: readonly string[]): Panic {
  const text = block.join('\n');
  const modern = /panicked at ([^\s:]+):(\d+):\d+:\n([\s\S]*?)(?=\n(?:note: |stack backtrace:)|$)/.exec(text);
  if (modern) return { file: modern[1], line: Number(modern[2]), message: modern[3] ?? '' };
  const legacy = /panicked at '([\s\S]*?)', ([^\s:]+):(\d+):\d+/.exec(text);
  if (legacy) return { file: legacy[2], line: Number(legacy[3]), message: legacy[1] ?? '' };
  const kept = block.filter((l) => l.trim() !== '' && !/^(?:note: |stack backtrace:|\s+\d+: |\s+at )/.test(l));
  return { message: kept.join('\n') };
}

function compileErrors(lines: readonly string[], root: string): TestFailure[] {
  const errors: TestFailure[] = [];
  lines.forEach((line, i) => {
    const head = /^error(?:\[(E\d+)\])?: (.+)$/.exec(line);
    if (!head || /^(?:test failed|doctest failed|could not compile|\d+ targets? failed|aborting due to)/.test(head[2] ?? '')) return;
    const at = /^\s*--> ([^:]+):(\d+):\d+/.exec(lines[i + 1] ?? '');
    const detail = lines.slice(i + 1, i + 8).filter((l) => /^\s*(?:\||=|\d+ \|)/.test(l));
    errors.push({
      name: `compile error${head[1] ? ` ${head[1]}` : ''}: ${head[2]}`,
      ...(at ? { file: displayPath(root, at[1] ?? ''), line: Number(at[2]) } : {}),
      message: cleanMessage([head[2] ?? '', ...detail].join('\n')),
    });
  });
  return errors;
}

/**
 * Counts per test binary (`Running src/lib.rs (target/debug/deps/mono_cart-…)`, `Doc-tests mono_cart`),
 * so a workspace run's crates get their own: the crate from the binary's name where it is the crate's
 * (unit tests, doc-tests), else the binary's source file (an integration test's `tests/x.rs`).
 */
function binaryUnits(lines: readonly string[]): UnitCounts[] {
  const units: UnitCounts[] = [];
  let current: { file?: string; crate?: string } = {};
  for (const line of lines) {
    const running = /^\s*Running (unittests )?(\S+\.rs) \((?:.*[\\/])?deps[\\/]([\w-]+?)-[0-9a-f]+(?:\.exe)?\)/.exec(line);
    if (running) current = running[1] ? { crate: running[3] ?? '' } : { file: running[2] ?? '' };
    const doc = /^\s*Doc-tests (\S+)/.exec(line);
    if (doc) current = { crate: doc[1] ?? '' };
    const result = /^test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored/.exec(line);
    if (result) units.push({ ...current, passed: Number(result[1]), failed: Number(result[2]), skipped: Number(result[3]) });
  }
  return units;
}

export function parseCargo(output: string, root: string): ParsedTestReport | undefined {
  const results = [...output.matchAll(/^test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored/gm)];
  const lines = output.split('\n');
  const built = /^\s*(?:Compiling|Running|Doc-tests) |^running \d+ tests?$/m.test(output);
  if (results.length === 0 && !(built && /^error(?:\[E\d+\])?: /m.test(output))) return undefined;
  const panics = new Map<string, Panic>();
  const failures: TestFailure[] = [];
  let target: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const running = /^\s*Running (?:unittests )?(\S+\.rs) \(/.exec(line);
    if (running) target = running[1];
    const block = /^---- (.+?) stdout ----$/.exec(line);
    if (block?.[1]) {
      const body: string[] = [];
      while (i + 1 < lines.length && !/^---- .+ stdout ----$|^failures:$/.test(lines[i + 1] ?? '')) body.push(lines[++i] ?? '');
      panics.set(block[1], readPanic(body));
      continue;
    }
    if (line !== 'failures:' || !/^ {4}\S/.test(lines[i + 1] ?? '')) continue;
    while (/^ {4}\S/.test(lines[i + 1] ?? '')) {
      const name = (lines[++i] ?? '').trim();
      const panic = panics.get(name);
      const doc = /^(\S+\.rs) - .* \(line (\d+)\)$/.exec(name);
      const file = doc?.[1] ?? panic?.file ?? target;
      const lineNo = doc ? Number(doc[2]) : panic?.line;
      failures.push({ name, ...(file ? { file: displayPath(root, file) } : {}), ...(lineNo ? { line: lineNo } : {}), message: cleanMessage(panic?.message ?? '') });
    }
  }
  const sum = (group: number): number => results.reduce((total, m) => total + Number(m[group] ?? 0), 0);
  return { format: 'cargo', passed: sum(1), failed: sum(2), skipped: sum(3), failures: [...failures, ...compileErrors(lines, root)], units: binaryUnits(lines) };
}
