/**
 * A monorepo command's text, split back into each package's own output: the prefixes tools put
 * before every line (pnpm's `packages/api test: `, turbo's `@demo/api:test: `, yarn's
 * `[@demo/api]: `, lerna's `@demo/api: `) are stripped, and the headers that start a package's
 * section (npm's `> @demo/api@1.0.0 test`, nx's `> nx run api:test`) switch whose output follows.
 * Only the workspace's own package names and folders count as prefixes, so a test's output that
 * happens to contain a colon is never mistaken for one. Lines of no package stay with the root.
 */
import { normaliseOutput } from './failureText';

export interface SegmentKey {
  name: string;
  dir: string;
}

export interface Segment {
  key: SegmentKey | undefined;
  text: string;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const SCRIPT = '[\\w:.-]+';

function matcher(keys: readonly SegmentKey[]): { prefix: RegExp; header: RegExp; byLabel: Map<string, SegmentKey> } {
  const byLabel = new Map<string, SegmentKey>();
  for (const key of keys) {
    byLabel.set(key.name, key);
    if (key.dir !== '') byLabel.set(key.dir, key);
  }
  // Longest first, so `packages/api-client` is not read as `packages/api`.
  const labels = [...byLabel.keys()].sort((a, b) => b.length - a.length).map(escape).join('|');
  const prefix = new RegExp(`^(?:\\[(${labels})\\]:? ?|(${labels}) ${SCRIPT}(?:\\$|:) ?|(${labels}):${SCRIPT}: ?|(${labels}): )`);
  const header = new RegExp(`^> (?:nx run (${labels}):${SCRIPT}\\b|(${labels})@\\S+ ${SCRIPT}\\b)`);
  return { prefix, header, byLabel };
}

/** The output per package, in order of first appearance; undefined when no line named a package. */
export function splitByPackage(output: string, keys: readonly SegmentKey[]): Segment[] | undefined {
  if (keys.length === 0) return undefined;
  const { prefix, header, byLabel } = matcher(keys);
  const lines = new Map<SegmentKey | undefined, string[]>();
  let current: SegmentKey | undefined;
  let found = false;
  const add = (key: SegmentKey | undefined, line: string): void => {
    const list = lines.get(key) ?? [];
    list.push(line);
    lines.set(key, list);
  };
  for (const line of normaliseOutput(output).split('\n')) {
    const head = header.exec(line);
    if (head) {
      current = byLabel.get(head[1] ?? head[2] ?? '');
      found = true;
      continue;
    }
    const pre = prefix.exec(line);
    if (pre) {
      found = true;
      add(byLabel.get(pre[1] ?? pre[2] ?? pre[3] ?? pre[4] ?? ''), line.slice(pre[0].length));
    } else add(current, line);
  }
  if (!found) return undefined;
  return [...lines.entries()].map(([key, text]) => ({ key, text: text.join('\n') }));
}
