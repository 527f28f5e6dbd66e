/**
 * Watches the workspace for edits so the tests server can run the suite in the background before
 * the model ends its turn. What a developer would not call an edit is ignored: `.gitignore`d paths
 * (at every level, reloaded when a `.gitignore` changes), `.git`, `node_modules`, and the server's
 * own state dir. Events are debounced: `onQuiet` fires once the tree has been still for `debounceMs`.
 */
import { lstatSync, type Stats } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { ALWAYS_SKIPPED, ignored, loadRules, type Rules } from '../common/fileWalker';
import { isInside } from '../common/safePath';

export interface WorkspaceWatcherOptions {
  rootReal: string;
  /** Paths never to watch (the state dir, when it lies inside the workspace). */
  exclude: readonly string[];
  debounceMs: number;
  onQuiet: () => void;
  onError?: (error: unknown) => void;
}

export interface WorkspaceWatcher {
  close(): Promise<void>;
}

class IgnoreRules {
  private readonly byDir = new Map<string, Rules | null>();

  constructor(private readonly rootReal: string) {}

  clear(): void {
    this.byDir.clear();
  }

  /** Whether a root-relative path is ignored by any `.gitignore` from the root down to its folder. */
  ignores(rel: string, isDir: boolean): boolean {
    const parts = rel.split('/');
    if (parts.some((p) => ALWAYS_SKIPPED.has(p))) return true;
    const rules: Rules[] = [];
    for (let i = 0; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      let found = this.byDir.get(dir);
      if (found === undefined) {
        found = loadRules(join(this.rootReal, dir), dir) ?? null;
        this.byDir.set(dir, found);
      }
      if (found) rules.push(found);
    }
    return ignored(rules, rel, isDir);
  }
}

export function watchWorkspace(options: WorkspaceWatcherOptions): WorkspaceWatcher {
  const rules = new IgnoreRules(options.rootReal);
  const isIgnored = (path: string, stats?: Stats): boolean => {
    if (options.exclude.some((dir) => isInside(dir, path))) return true;
    const rel = relative(options.rootReal, path).split(sep).join('/');
    if (rel === '') return false;
    if (rel.startsWith('..')) return true;
    let isDir = stats?.isDirectory();
    if (isDir === undefined) {
      try {
        isDir = lstatSync(path).isDirectory();
      } catch {
        isDir = false;
      }
    }
    return rules.ignores(rel, isDir);
  };
  let timer: NodeJS.Timeout | undefined;
  const watcher: FSWatcher = watch(options.rootReal, { ignored: isIgnored, ignoreInitial: true, followSymlinks: false, ignorePermissionErrors: true });
  watcher.on('all', (_event, path) => {
    if (path.endsWith(`${sep}.gitignore`) || path === '.gitignore') rules.clear();
    clearTimeout(timer);
    timer = setTimeout(options.onQuiet, options.debounceMs);
  });
  watcher.on('error', (error) => options.onError?.(error));
  return {
    close: async () => {
      clearTimeout(timer);
      await watcher.close();
    },
  };
}
