/**
 * The hub's MCP resources (the core's ResourceHost, src/agent/resources.ts) over the SDK's client
 * methods: `resources/list` and `resources/templates/list` of every connected server that says it has
 * resources, `resources/read`, and `resources/subscribe` (a listen stream on the 2026-07-28 era) for an
 * attached resource, held and renewed in resourceSubscriptions.ts, whose
 * `notifications/resources/updated` the hub passes on. Each
 * request is bounded by the connect timeout and the caller's signal, and names its server on failure.
 */
import type { Client } from '@modelcontextprotocol/client';
import type { ResourceContent, ResourceHost, ResourceInfo, ResourceListing, ResourceTemplateInfo } from '../agent/resources';
import { quotedName } from '../agent/nameText';
import { failureWords } from './connectionErrors';
import { offersSubscriptions, type ResourceSubscriptions } from './resourceSubscriptions';

/** What the hub gives: its servers with resources, and a started client of one. */
export interface ResourceServers {
  /** Connected servers whose capabilities include resources, in configuration order. */
  names(): string[];
  /** The server's connected client; rejects when it is not connected (or has no resources). */
  client(server: string, signal: AbortSignal): Promise<Client>;
  timeoutMs: number;
  /** Who holds which subscription; renewed by the hub after each (re)connect. */
  subscriptions: ResourceSubscriptions;
  /** Calls the listener when a server says a subscribed resource changed. */
  onUpdated(listener: (server: string, uri: string) => void): () => void;
}

function blobBytes(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
}

async function listOne(client: Client, server: string, options: { signal: AbortSignal; timeout: number }): Promise<{ resources: ResourceInfo[]; templates: ResourceTemplateInfo[] }> {
  const listed = await client.listResources(undefined, options);
  const templates = client.getServerCapabilities()?.resources === undefined ? { resourceTemplates: [] } : await client.listResourceTemplates(undefined, options).catch(() => ({ resourceTemplates: [] }));
  return {
    resources: listed.resources.map((r) => ({
      server,
      uri: r.uri,
      name: r.name,
      ...(r.title !== undefined ? { title: r.title } : {}),
      ...(r.description !== undefined ? { description: r.description } : {}),
      ...(r.mimeType !== undefined ? { mimeType: r.mimeType } : {}),
      ...(typeof r.size === 'number' ? { size: r.size } : {}),
    })),
    templates: templates.resourceTemplates.map((t) => ({
      server,
      uriTemplate: t.uriTemplate,
      name: t.name,
      ...(t.description !== undefined ? { description: t.description } : {}),
      ...(t.mimeType !== undefined ? { mimeType: t.mimeType } : {}),
    })),
  };
}

export function resourceHost(servers: ResourceServers): ResourceHost {
  const options = (signal: AbortSignal) => ({ signal, timeout: servers.timeoutMs });
  return {
    servers: () => servers.names(),
    async list(signal): Promise<ResourceListing> {
      const listing: ResourceListing = { resources: [], templates: [], errors: [] };
      type One = { server: string; resources: ResourceInfo[]; templates: ResourceTemplateInfo[] } | { server: string; error: string };
      const each = await Promise.all(
        servers.names().map(async (server): Promise<One> => {
          try {
            return { server, ...(await listOne(await servers.client(server, signal), server, options(signal))) };
          } catch (error) {
            signal.throwIfAborted();
            return { server, error: failureWords(error) };
          }
        }),
      );
      for (const one of each) {
        if ('error' in one) listing.errors.push({ server: one.server, message: one.error });
        else {
          listing.resources.push(...one.resources);
          listing.templates.push(...one.templates);
        }
      }
      return listing;
    },
    async read(server, uri, signal): Promise<ResourceContent[]> {
      try {
        const client = await servers.client(server, signal);
        const result = await client.readResource({ uri }, options(signal));
        return result.contents.map((c) => {
          const mime = c.mimeType !== undefined ? { mimeType: c.mimeType } : {};
          if ('text' in c && typeof c.text === 'string') return { uri: c.uri, ...mime, text: c.text };
          const blob = 'blob' in c && typeof c.blob === 'string' ? c.blob : '';
          return { uri: c.uri, ...mime, blobBytes: blobBytes(blob), blob };
        });
      } catch (error) {
        signal.throwIfAborted();
        throw new Error(`resources/read of ${uri} on MCP server ${quotedName(server)} failed: ${failureWords(error)}`, { cause: error });
      }
    },
    async subscribe(server, uri, signal): Promise<'subscribed' | 'unsupported'> {
      try {
        const client = await servers.client(server, signal);
        if (!offersSubscriptions(client)) return 'unsupported';
        await servers.subscriptions.add(server, uri, client);
        return 'subscribed';
      } catch (error) {
        signal.throwIfAborted();
        throw new Error(`resources/subscribe of ${uri} on MCP server ${quotedName(server)} failed: ${failureWords(error)}`, { cause: error });
      }
    },
    unsubscribe: (server, uri) => servers.subscriptions.remove(server, uri),
    onUpdated: (listener) => servers.onUpdated(listener),
  };
}
