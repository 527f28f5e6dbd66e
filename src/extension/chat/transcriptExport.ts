/** Renders a chat's entries as Markdown for "Sprout: Export Transcript"; hook output is marked as such. */
import type { ChatEntry } from '../../shared/protocol';

/**
 * A fenced block that `text` cannot close early: the fence is longer than any backtick run inside, so
 * tool and hook output (untrusted) stays a code block whatever it contains.
 */
function fenced(text: string, lang = ''): string[] {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${fence}${lang}`, text, fence];
}

export function entriesToMarkdown(title: string, entries: readonly ChatEntry[]): string {
  const out = [`# ${title}`, ''];
  for (const e of entries) {
    switch (e.kind) {
      case 'user':
        out.push('## You', '', e.text, ...(e.images ?? []).map((image) => `[image: ${image.name}]`), '');
        break;
      case 'assistant':
        out.push('## Sprout', '', e.text, '');
        break;
      case 'tool':
        out.push(`**Tool** \`${e.name}\` (${e.status}${e.blocked ? `, blocked by \`${e.blocked.server}\`` : ''})`, '', ...fenced(e.args, 'json'), ...(e.result ? fenced(e.result) : []), '');
        break;
      case 'objection':
        out.push(`**Hook objection** from \`${e.server}\` (budget ${e.used}/${e.max}, hook output):`, '', ...fenced(e.text), '');
        break;
      case 'hookEvent':
        out.push(`> ${e.text}`, '');
        break;
      case 'injection':
        out.push(`**${e.hook}** from \`${e.server}\` (hook output):`, '', ...fenced(e.text), '');
        break;
      case 'compaction':
        out.push(`**Compaction** (${e.trigger}${e.fallback ? ', fallback' : ''})`, '', e.summary ?? '', '');
        for (const i of e.injected) out.push(`_PostCompact from \`${i.server}\` (hook output):`, '', ...fenced(i.text), '');
        break;
      case 'thinking':
        // Collapsed and fenced: the model's thinking is not the answer, and it is model text.
        out.push('<details><summary>Thinking</summary>', '', ...fenced(e.text), '', '</details>', '');
        break;
      case 'outcome':
        out.push(`_Turn ended: ${e.reason}${e.message ? ` – ${e.message}` : ''}_`, '');
        if (e.unresolved) {
          out.push(`**Unresolved hook objection** (${e.unresolved.cause.replace('_', ' ')}, hook output):`, '');
          for (const o of e.unresolved.objections) out.push(...fenced(`${o.server}: ${o.text}`), '');
        }
        break;
      case 'elicitation':
        out.push(`**Question** from \`${e.server}\` (${e.status}, server text):`, '', ...fenced(e.message), '');
        break;
      case 'plan':
        out.push(`**Plan** (${e.state}, model text):`, '', ...fenced(e.steps.map((s, i) => `${i + 1}. ${s}`).join('\n')), '');
        break;
      case 'sampling':
        out.push(`**MCP sampling** by \`${e.server}\` (${e.status}${e.model === undefined ? '' : `, ${e.model}`}${e.tokens === undefined ? '' : `, ${e.tokens.total} tokens`}, server text):`, '', ...fenced(e.prompt), '');
        break;
    }
  }
  return out.join('\n');
}
