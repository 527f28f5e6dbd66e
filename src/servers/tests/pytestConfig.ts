/**
 * The JUnit XML file a project's own pytest configuration asks for (`addopts = --junitxml=...` in
 * pytest.ini, pyproject.toml, tox.ini or setup.cfg): that file is the run's report, and no second
 * `--junitxml` is added (the last one would win, and the file the project's CI reads would never be
 * written). pytest takes the first configuration file it finds from the folder it runs in upwards;
 * a relative path is relative to that folder.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** Each file pytest reads, with the section that makes it pytest's (undefined: always pytest's). */
const CONFIGS: { file: string; section?: RegExp }[] = [
  { file: 'pytest.ini' },
  { file: '.pytest.ini' },
  { file: 'pyproject.toml', section: /^\[tool\.pytest\.ini_options\]\s*$/m },
  { file: 'tox.ini', section: /^\[pytest\]\s*$/m },
  { file: 'setup.cfg', section: /^\[tool:pytest\]\s*$/m },
];

function read(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The pytest section of a configuration file's text, or undefined when the file has none. */
function pytestSection(text: string, section: RegExp | undefined): string | undefined {
  const start = section ? section.exec(text) : /^\[pytest\]\s*$/m.exec(text);
  if (!start) return section ? undefined : '';
  const rest = text.slice(start.index + start[0].length);
  const next = /^\[/m.exec(rest);
  return next ? rest.slice(0, next.index) : rest;
}

/** The `--junitxml` path in a section's `addopts` (a string, a list, or continued lines). */
function junitInAddopts(section: string): string | undefined {
  const addopts = /^addopts\s*=([\s\S]*?)(?=^[\w.-]+\s*=|(?![\s\S]))/m.exec(section)?.[1];
  const path = addopts ? /--junit-?xml(?:=|\s+)([^\s"',\]]+)/.exec(addopts)?.[1] : undefined;
  return path === undefined || path === '' ? undefined : path;
}

/** The report file the configuration pytest would read in `dir` asks for, as an absolute path. */
export function pytestConfigReport(dir: string): string | undefined {
  for (let here = resolve(dir); ; here = dirname(here)) {
    for (const config of CONFIGS) {
      const text = read(join(here, config.file));
      const section = text === undefined ? undefined : pytestSection(text, config.section);
      if (section === undefined) continue;
      // The first file that is pytest's decides, whether or not it asks for a report.
      const path = junitInAddopts(section);
      return path === undefined ? undefined : isAbsolute(path) ? path : resolve(dir, path);
    }
    if (dirname(here) === here) return undefined;
  }
}
