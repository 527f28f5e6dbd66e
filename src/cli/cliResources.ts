/**
 * `--resource SERVER:URI` (repeatable): an MCP server's resource attached to the prompt, read once the
 * servers are up, fenced like a file (untrusted text; a binary one is named, not inlined). A value
 * without a server, or a read that fails, is a usage error naming the flag, the server and why.
 */
import type { PromptAttachment, PromptOptions } from '../agent/promptAttachments';
import type { ResourceHost } from '../agent/resources';
import { contentsText } from '../agent/resources';
import { capText } from '../agent/contextMentions';
import { errorMessage } from '../agent/errorMessage';
import { UsageError } from './exitCodes';

export interface ResourceRef {
  server: string;
  uri: string;
}

export function parseResourceRefs(values: readonly string[]): ResourceRef[] {
  return values.map((value) => {
    const colon = value.indexOf(':');
    if (colon <= 0 || colon === value.length - 1) throw new UsageError(`--resource ${JSON.stringify(value)}: give SERVER:URI, e.g. --resource docs:file:///guide.md`);
    return { server: value.slice(0, colon), uri: value.slice(colon + 1) };
  });
}

export async function readCliResources(refs: readonly ResourceRef[], host: ResourceHost | undefined, signal: AbortSignal): Promise<PromptAttachment[]> {
  const attached: PromptAttachment[] = [];
  for (const { server, uri } of refs) {
    if (host === undefined) throw new UsageError(`--resource ${server}:${uri}: no MCP servers run`);
    try {
      attached.push({ label: `${server}:${uri}`, content: capText(contentsText(server, uri, await host.read(server, uri, signal))) });
    } catch (error) {
      if (signal.aborted) throw error;
      throw new UsageError(`--resource ${server}:${uri}: ${errorMessage(error)}`);
    }
  }
  return attached;
}

/**
 * The prompt's attachments with each `--resource` read after them (parsed here: a bad value is a usage
 * error), and the resources to watch: one that changes while the run goes on is read again for the next round.
 */
export async function withCliResources(
  attachments: Pick<PromptOptions, 'attachments'>,
  values: readonly string[],
  host: ResourceHost | undefined,
  signal: AbortSignal,
): Promise<Pick<PromptOptions, 'attachments' | 'resources'>> {
  if (values.length === 0) return attachments;
  const refs = parseResourceRefs(values);
  return { attachments: [...(attachments.attachments ?? []), ...(await readCliResources(refs, host, signal))], resources: refs };
}
