/**
 * The packages of a monorepo, read from the workspace's own manifests: npm/yarn `workspaces` and
 * `pnpm-workspace.yaml` (each package's package.json, its name and the workspace packages it depends
 * on), a Cargo `[workspace]` (members, crate names, path dependencies), Go modules below the root
 * (module paths, `require`s of each other), and Python projects in subfolders. Undefined for a
 * single-package project: everything else in the server then works as before. Manifests are the
 * user's files: a broken one makes the package unknown, never an error of the server.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';
import { WALK_MAX_MS, walkFiles } from '../common/fileWalker';
import { globMatcher } from '../common/glob';

export type Ecosystem = 'js' | 'cargo' | 'go' | 'python';

export interface WorkspacePackage {
  /** package.json or crate name, Go module path, Python project folder. */
  name: string;
  /** Root-relative folder, `/`-separated. */
  dir: string;
  ecosystem: Ecosystem;
  /** Names of the workspace's packages this one depends on (its dependants are retested with it). */
  dependsOn: string[];
  /** package.json `scripts` (JavaScript packages). */
  scripts?: Record<string, string>;
}

export interface WorkspaceLayout {
  /** Which manifest declared the packages. */
  kind: 'npm' | 'pnpm' | 'yarn' | 'cargo' | 'go' | 'python';
  packages: WorkspacePackage[];
}

const MAX_FILES = 20_000;
const PYTHON_MANIFESTS = ['pyproject.toml', 'setup.py', 'setup.cfg'];

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function readJson(path: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(read(path) ?? '') as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Folders below the root holding `manifest`, found by the workspace's globs (`!` patterns exclude). */
function matchFolders(manifests: readonly string[], patterns: readonly string[]): string[] {
  const include = patterns.filter((p) => !p.startsWith('!')).map((p) => globMatcher(p.replace(/\/+$/, '').replace(/^\.\//, '')));
  const exclude = patterns.filter((p) => p.startsWith('!')).map((p) => globMatcher(p.slice(1).replace(/\/+$/, '').replace(/^\.\//, '')));
  const dirs = manifests.map((m) => (m.includes('/') ? m.slice(0, m.lastIndexOf('/')) : ''));
  return dirs.filter((d) => d !== '' && include.some((m) => m(d)) && !exclude.some((m) => m(d)));
}

function manifestsNamed(files: readonly string[], name: string): string[] {
  return files.filter((f) => f === name || f.endsWith(`/${name}`));
}

function jsPackages(root: string, files: readonly string[], patterns: readonly string[]): WorkspacePackage[] {
  const found = matchFolders(manifestsNamed(files, 'package.json'), patterns).map((dir) => ({ dir, json: readJson(join(root, dir, 'package.json')) ?? {} }));
  const names = new Set(found.map((p) => (typeof p.json.name === 'string' ? p.json.name : p.dir)));
  return found.map(({ dir, json }) => {
    const deps = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'].flatMap((k) => Object.keys((json[k] as object | undefined) ?? {}));
    const scripts = Object.fromEntries(Object.entries((json.scripts as Record<string, unknown> | undefined) ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'));
    return { name: typeof json.name === 'string' ? json.name : dir, dir, ecosystem: 'js' as const, dependsOn: [...new Set(deps.filter((d) => names.has(d)))], scripts };
  });
}

function jsLayout(root: string, files: () => string[]): WorkspaceLayout | undefined {
  const pkg = readJson(join(root, 'package.json'));
  const declared = pkg?.workspaces;
  const npmPatterns = Array.isArray(declared) ? strings(declared) : strings((declared as { packages?: unknown } | undefined)?.packages);
  let pnpmPatterns: string[] = [];
  const pnpmFile = read(join(root, 'pnpm-workspace.yaml'));
  if (pnpmFile !== undefined) {
    try {
      pnpmPatterns = strings((parseYaml(pnpmFile) as { packages?: unknown } | null)?.packages);
    } catch {
      pnpmPatterns = [];
    }
  }
  const patterns = pnpmPatterns.length > 0 ? pnpmPatterns : npmPatterns;
  if (patterns.length === 0) return undefined;
  const kind = pnpmPatterns.length > 0 ? 'pnpm' : existsSync(join(root, 'yarn.lock')) || /^yarn@/.test(String(pkg?.packageManager ?? '')) ? 'yarn' : 'npm';
  return { kind, packages: jsPackages(root, files(), patterns) };
}

function tomlAt(path: string): Record<string, unknown> | undefined {
  const text = read(path);
  if (text === undefined) return undefined;
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function cargoLayout(root: string, files: () => string[]): WorkspaceLayout | undefined {
  const workspace = tomlAt(join(root, 'Cargo.toml'))?.workspace as { members?: unknown; exclude?: unknown } | undefined;
  if (!workspace) return undefined;
  const patterns = [...strings(workspace.members), ...strings(workspace.exclude).map((e) => `!${e}`)];
  const crates = matchFolders(manifestsNamed(files(), 'Cargo.toml'), patterns).map((dir) => ({ dir, toml: tomlAt(join(root, dir, 'Cargo.toml')) ?? {} }));
  const rootPackage = tomlAt(join(root, 'Cargo.toml'))?.package !== undefined ? [{ dir: '', toml: tomlAt(join(root, 'Cargo.toml')) ?? {} }] : [];
  const all = [...rootPackage, ...crates];
  const nameOf = (toml: Record<string, unknown>, dir: string): string => String((toml.package as { name?: unknown } | undefined)?.name ?? dir);
  const names = new Set(all.map((c) => nameOf(c.toml, c.dir)));
  const packages = all.map(({ dir, toml }) => {
    const deps = ['dependencies', 'dev-dependencies', 'build-dependencies'].flatMap((k) => Object.keys((toml[k] as object | undefined) ?? {}));
    return { name: nameOf(toml, dir), dir, ecosystem: 'cargo' as const, dependsOn: deps.filter((d) => names.has(d)) };
  });
  return packages.length > 0 ? { kind: 'cargo', packages } : undefined;
}

function goLayout(root: string, files: () => string[]): WorkspaceLayout | undefined {
  const mods = manifestsNamed(files(), 'go.mod').filter((m) => !/(^|\/)(vendor|testdata)\//.test(m));
  if (mods.length === 0 || (mods.length === 1 && mods[0] === 'go.mod')) return undefined;
  const modules = mods.map((m) => ({ dir: m === 'go.mod' ? '' : dirname(m), text: read(join(root, m)) ?? '' }));
  const pathOf = (text: string, dir: string): string => /^module\s+(\S+)/m.exec(text)?.[1] ?? dir;
  const paths = new Set(modules.map((m) => pathOf(m.text, m.dir)));
  const packages = modules.map(({ dir, text }) => {
    const required = [...text.matchAll(/^\s*(?:require\s+)?([^\s()]+)\s+v\S+/gm)].map((r) => r[1] ?? '');
    return { name: pathOf(text, dir), dir, ecosystem: 'go' as const, dependsOn: [...new Set(required.filter((r) => paths.has(r)))] };
  });
  return { kind: 'go', packages };
}

function pythonLayout(root: string, files: () => string[]): WorkspaceLayout | undefined {
  if (PYTHON_MANIFESTS.some((m) => existsSync(join(root, m)))) return undefined;
  const dirs = [...new Set(PYTHON_MANIFESTS.flatMap((m) => manifestsNamed(files(), m)).map((m) => dirname(m)))].filter((d) => d !== '.' && d.split('/').length <= 2);
  if (dirs.length < 2) return undefined;
  const packages = dirs.sort().map((dir) => ({ name: dir, dir, ecosystem: 'python' as const, dependsOn: [] as string[] }));
  const names = new Set(packages.map((p) => p.name.split('/').pop() ?? p.name));
  for (const p of packages) {
    const project = tomlAt(join(root, p.dir, 'pyproject.toml'))?.project as { dependencies?: unknown } | undefined;
    const deps = strings(project?.dependencies).map((d) => /^[A-Za-z0-9_.-]+/.exec(d)?.[0] ?? '');
    p.dependsOn = packages.filter((o) => o !== p && deps.some((d) => names.has(d) && o.dir.endsWith(d))).map((o) => o.name);
  }
  return { kind: 'python', packages };
}

/** The workspace's packages, or undefined for a single-package project. */
export function findWorkspace(root: string): WorkspaceLayout | undefined {
  let walked: string[] | undefined;
  const files = (): string[] => (walked ??= walkFiles({ start: root, rootReal: root, maxEntries: MAX_FILES, maxMs: WALK_MAX_MS }).files.map((f) => f.relative));
  for (const layout of [jsLayout, cargoLayout, goLayout, pythonLayout]) {
    const found = layout(root, files);
    if (found && found.packages.length > 0) return found;
  }
  return undefined;
}

/** The package a root-relative file belongs to (the deepest package folder holding it). */
export function packageOf(layout: WorkspaceLayout | undefined, file: string): WorkspacePackage | undefined {
  let best: WorkspacePackage | undefined;
  for (const p of layout?.packages ?? []) {
    if ((p.dir === '' || file === p.dir || file.startsWith(`${p.dir}/`)) && (best === undefined || p.dir.length > best.dir.length)) best = p;
  }
  return best;
}

/** `names` and every package that depends on one of them, directly or not. */
export function withDependants(layout: WorkspaceLayout, names: ReadonlySet<string>): Set<string> {
  const out = new Set(names);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of layout.packages) {
      if (!out.has(p.name) && p.dependsOn.some((d) => out.has(d))) {
        out.add(p.name);
        grew = true;
      }
    }
  }
  return out;
}
