/**
 * JUnit XML that a build tool leaves behind without being asked: Maven Surefire and Failsafe write
 * `target/surefire-reports/TEST-*.xml` (`target/failsafe-reports`), Gradle writes
 * `build/test-results/<task>/TEST-*.xml`, at the root and in each module folder. After `mvn test` or
 * `./gradlew test` the server reads the files this run wrote (modified since it started, so an old
 * report is never taken for this run's), which name every test, its class file and the failing line.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseJunit } from './formats/junit';
import type { ParsedTestReport } from './testResult';

const TOOLS: { program: RegExp; dirs: string[]; format: string }[] = [
  { program: /(?:^|[\s/;&|])(?:mvn|mvnw)(?=\s|$)/, dirs: ['target/surefire-reports', 'target/failsafe-reports'], format: 'surefire-junit' },
  { program: /(?:^|[\s/;&|])(?:gradle|gradlew)(?=\s|$)/, dirs: ['build/test-results'], format: 'gradle-junit' },
];
const MAX_MODULES = 200;
const MAX_FILES = 2000;
const SOURCE_ROOTS = ['src/test/java', 'src/test/kotlin', 'src/test/groovy', 'src/test/scala', 'src/integrationTest/java'];

function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function modifiedSince(file: string, sinceMs: number): boolean {
  try {
    return statSync(file).mtimeMs >= sinceMs;
  } catch {
    return false;
  }
}

/** Report files in `dir` (and, for Gradle, one level of task folders below it). */
function reportFiles(dir: string): string[] {
  const here = entries(dir);
  const xml = here.filter((f) => /^TEST-.+\.xml$/.test(f)).map((f) => join(dir, f));
  const nested = here.filter((f) => !f.includes('.')).flatMap((sub) => entries(join(dir, sub)).filter((f) => /^TEST-.+\.xml$/.test(f)).map((f) => join(dir, sub, f)));
  return [...xml, ...nested];
}

/** Gives each test case the source file of its class and the line its own stack frame names. */
function withSourceLocations(xml: string, moduleDir: string, root: string): string {
  return xml.replace(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g, (whole, attrs: string, _end: string, body: string | undefined) => {
    const name = /\bname="([^"]*)"/.exec(attrs)?.[1];
    const classname = /\bclassname="([^"]*)"/.exec(attrs)?.[1];
    if (!name || !classname || /\bfile="/.test(attrs)) return whole;
    const path = classname.replace(/\$.*$/, '').split('.').join('/');
    const source = SOURCE_ROOTS.flatMap((r) => ['.java', '.kt', '.groovy', '.scala'].map((ext) => join(moduleDir, r, `${path}${ext}`))).find((f) => modifiedSince(f, 0));
    if (!source) return whole;
    const escaped = `${classname}.${name}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const line = body ? new RegExp(`at ${escaped}\\([^:()]+:(\\d+)\\)`).exec(body)?.[1] : undefined;
    const extra = ` file="${relative(root, source).split('\\').join('/')}"${line ? ` line="${line}"` : ''}`;
    return whole.replace(`<testcase${attrs}`, `<testcase${attrs}${extra}`);
  });
}

/** This run's reports left by the build tool `command` runs, merged; undefined when there are none. */
export function readLeftReports(command: string, root: string, sinceMs: number): ParsedTestReport | undefined {
  const tool = TOOLS.find((t) => t.program.test(command));
  if (!tool) return undefined;
  const modules = ['', ...entries(root).filter((e) => !e.startsWith('.') && e !== 'node_modules').slice(0, MAX_MODULES)];
  const merged: ParsedTestReport = { format: tool.format, passed: 0, failed: 0, skipped: 0, failures: [] };
  let found = 0;
  for (const module of modules) {
    for (const dir of tool.dirs) {
      for (const file of reportFiles(join(root, module, dir))) {
        if (found >= MAX_FILES || !modifiedSince(file, sinceMs)) continue;
        let text: string;
        try {
          text = readFileSync(file, 'utf8');
        } catch {
          continue;
        }
        const report = parseJunit(withSourceLocations(text, join(root, module), root), root, tool.format);
        if (!report) continue;
        found++;
        merged.passed += report.passed;
        merged.failed += report.failed;
        merged.skipped += report.skipped;
        merged.failures.push(...report.failures);
      }
    }
  }
  return found > 0 ? merged : undefined;
}
