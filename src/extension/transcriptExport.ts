/** Renders a chat's entries as Markdown for "Sprout: Export Transcript"; hook output is marked as such. */
import type { ChatEntry } from '../shared/protocol';

export function entriesToMarkdown(title: string, entries: readonly ChatEntry[]): string {
  const out = [`# ${title}`, ''];
  for (const e of entries) {
    switch (e.kind) {
      case 'user':
        out.push('## You', '', e.text, '');
        break;
      case 'assistant':
        out.push('## Sprout', '', e.text, '');
        break;
      case 'tool':
        out.push(`**Tool** \`${e.name}\` (${e.status})`, '', '```json', e.args, '```', ...(e.result ? ['```', e.result, '```'] : []), '');
        break;
      case 'objection':
        out.push(`**Hook objection** from \`${e.server}\` (budget ${e.used}/${e.max}, hook output):`, '', '```', e.text, '```', '');
        break;
      case 'hookEvent':
        out.push(`> ${e.text}`, '');
        break;
      case 'compaction':
        out.push(`**Compaction** (${e.trigger}${e.fallback ? ', fallback' : ''})`, '', e.summary ?? '', ...e.injected.map((i) => `- _PostCompact from ${i.server}: ${i.text}`), '');
        break;
      case 'outcome':
        out.push(`_Turn ended: ${e.reason}${e.message ? ` – ${e.message}` : ''}_`, '');
        break;
    }
  }
  return out.join('\n');
}
