/**
 * Bench: what reading instructions adds to a prompt in a generated 50-package monorepo (each package
 * with its own AGENTS.md and a few source folders, a root AGENTS.md, CLAUDE.md with an import, Copilot
 * and Cursor rules, a node_modules the walk skips): the hosts' read (node:fs, the walk, front matter,
 * hashes) plus the core's decision after a file in one package was read, per prompt. Target: under 20 ms.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decideInstructions } from '../../src/agent/instructions';
import { INSTRUCTION_SOURCES } from '../../src/customizations/instructionSources';
import { readInstructions } from '../../src/customizations/instructionFiles';
import { nodeInstructionFs } from '../../src/platform/instructionFs';
import { globMatcher } from '../../src/servers/common/glob';
import { median, tempDir } from './benchHarness';

const PACKAGES = 50;
const ITERATIONS = 30;

function monorepo(root: string): void {
  const write = (path: string, text: string): void => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write('AGENTS.md', '# Repo\nUse pnpm. Run `make check` before you finish.\n'.repeat(20));
  write('CLAUDE.md', 'See @docs/style.md\n');
  write('docs/style.md', 'Two spaces.\n'.repeat(50));
  write('.github/copilot-instructions.md', 'Be brief.\n');
  write('.github/instructions/ts.instructions.md', '---\napplyTo: "**/*.ts"\n---\nStrict types.\n');
  write('.cursor/rules/react.mdc', '---\nglobs: **/*.tsx, components/**/*\n---\nHooks rules.\n');
  for (let i = 0; i < PACKAGES; i++) {
    write(`packages/p${i}/AGENTS.md`, `Package p${i}: run its own tests.\n`.repeat(10));
    for (const folder of ['src', 'src/lib', 'test', 'dist']) write(`packages/p${i}/${folder}/index.ts`, 'export {};\n');
    write(`packages/p${i}/node_modules/dep/AGENTS.md`, 'never read');
  }
}

export async function runInstructionsBench(): Promise<string[]> {
  const tmp = tempDir('sprout-bench-instructions-');
  try {
    monorepo(tmp.dir);
    const fs = nodeInstructionFs();
    const times: number[] = [];
    let applied = 0;
    let files = 0;
    for (let i = 0; i < ITERATIONS; i++) {
      const started = performance.now();
      const set = readInstructions(fs, { root: tmp.dir, home: join(tmp.dir, 'no-home'), trusted: true, sources: INSTRUCTION_SOURCES, compileGlob: globMatcher });
      const decision = decideInstructions(set, [`packages/p${i % PACKAGES}/src/index.ts`]);
      times.push(performance.now() - started);
      applied = decision.applied.length;
      files = set.files.length;
    }
    const ms = median(times);
    return [
      `instructions in a ${PACKAGES}-package monorepo (${files} files found, ${applied} applied after one package's file was read): ` +
        `read + decide ${ms.toFixed(1)} ms a prompt (median of ${ITERATIONS}; target < 20 ms: ${ms < 20 ? 'met' : 'NOT met'})`,
    ];
  } finally {
    tmp.remove();
  }
}
