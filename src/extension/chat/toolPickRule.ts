/**
 * How the tool picker's boxes read (toolPicker.ts), kept apart from the quick pick so it is a pure
 * rule: each tool's own box says whether it is on, then a group (a server, a tool set) whose box the
 * user changed turns all of its tools that way, so unchecking a server turns its tools off even though
 * their own boxes were left checked, and a group left as it was changes nothing.
 */
import type { ToolInfo } from '../../agent/messages';

export interface PickItem {
  tools: ToolInfo[];
}

/** The real names of the tools on after the pick; `groups` maps each group item to whether its box was checked when the pick opened. */
export function pickedOn<T extends PickItem>(items: readonly T[], picked: ReadonlySet<T>, groups: ReadonlyMap<T, boolean>): Set<string> {
  const on = new Set(items.filter((i) => !groups.has(i) && picked.has(i)).flatMap((i) => i.tools.map((t) => t.qualifiedName)));
  for (const [group, wasOn] of groups) {
    const nowOn = picked.has(group);
    if (nowOn === wasOn) continue;
    for (const t of group.tools) {
      if (nowOn) on.add(t.qualifiedName);
      else on.delete(t.qualifiedName);
    }
  }
  return on;
}
