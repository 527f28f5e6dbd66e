/**
 * The hub's resource subscriptions (MCP spec, resources/subscribe and resources/unsubscribe; on the
 * 2026-07-28 era a `subscriptions/listen` stream per resource, closed to unsubscribe). It counts who
 * holds each (server, URI), so a resource several chats attach is subscribed once and let go when the
 * last of them ends; and it subscribes every held one again after its server (re)connects (a restart,
 * a reconnect, a new HTTP session), which knows nothing of the old connection's subscriptions. A
 * renewal is made only where the new connection still says `resources.subscribe`; a renewal or an
 * unsubscribe the server fails is reported to the caller (logged), never thrown.
 */
import type { Client } from '@modelcontextprotocol/client';

type Stream = Awaited<ReturnType<Client['listen']>>;

interface Held {
  holders: number;
  /** The connection the subscription was made on (undefined: none now). */
  client?: Client;
  /** The modern era's listen stream on that connection. */
  stream?: Stream;
  /** The request that made it, which a second holder waits for. */
  pending?: Promise<void>;
}

export interface SubscriptionServers {
  /** The server's connected client now, if any (no I/O, never starts it). */
  current(server: string): Client | undefined;
  timeoutMs: number;
  /** A renewal or an unsubscribe the server did not take. */
  onFailure(server: string, uri: string, what: 'renew' | 'unsubscribe', error: unknown): void;
}

export const offersSubscriptions = (client: Client): boolean => client.getServerCapabilities()?.resources?.subscribe === true;

export class ResourceSubscriptions {
  private readonly held = new Map<string, Map<string, Held>>();

  constructor(private readonly servers: SubscriptionServers) {}

  /** One more holder of the resource, subscribed on `client` (the first holder's request is shared); rejects with the server's refusal. */
  async add(server: string, uri: string, client: Client): Promise<void> {
    const byUri = this.held.get(server) ?? new Map<string, Held>();
    this.held.set(server, byUri);
    const held = byUri.get(uri) ?? { holders: 0 };
    byUri.set(uri, held);
    held.holders += 1;
    try {
      if (held.client !== client || held.pending === undefined) held.pending = this.send(held, uri, client);
      await held.pending;
    } catch (error) {
      await this.remove(server, uri);
      throw error;
    }
  }

  /** One holder fewer; the last one's leaving unsubscribes on the connection that is up (a server that is down forgot it already). */
  async remove(server: string, uri: string): Promise<void> {
    const byUri = this.held.get(server);
    const held = byUri?.get(uri);
    if (byUri === undefined || held === undefined) return;
    held.holders -= 1;
    if (held.holders > 0) return;
    byUri.delete(uri);
    if (byUri.size === 0) this.held.delete(server);
    const { client, stream } = held;
    held.client = undefined;
    try {
      if (stream !== undefined) await stream.close();
      else if (client !== undefined && client === this.servers.current(server)) await client.unsubscribeResource({ uri }, { timeout: this.servers.timeoutMs });
    } catch (error) {
      this.servers.onFailure(server, uri, 'unsubscribe', error);
    }
  }

  /** The server is connected (again): every resource still held is subscribed on the new connection. */
  renew(server: string): void {
    const client = this.servers.current(server);
    const byUri = this.held.get(server);
    if (client === undefined || byUri === undefined) return;
    for (const [uri, held] of byUri) {
      if (held.client === client) continue;
      held.client = undefined;
      held.stream = undefined;
      if (!offersSubscriptions(client)) {
        this.servers.onFailure(server, uri, 'renew', new Error('the server no longer offers resource subscriptions'));
        continue;
      }
      held.pending = this.send(held, uri, client);
      held.pending.catch((error: unknown) => this.servers.onFailure(server, uri, 'renew', error));
    }
  }

  private async send(held: Held, uri: string, client: Client): Promise<void> {
    held.client = client;
    held.stream = undefined;
    try {
      await this.request(held, uri, client);
    } catch (error) {
      // Not made: the next holder or (re)connect asks again.
      if (held.client === client) held.client = undefined;
      throw error;
    }
  }

  private async request(held: Held, uri: string, client: Client): Promise<void> {
    // Neither takes a prompt's signal, which would end the subscription with the prompt.
    if (client.getProtocolEra() !== 'modern') return void (await client.subscribeResource({ uri }, { timeout: this.servers.timeoutMs }));
    const stream = await client.listen({ resourceSubscriptions: [uri] }, { timeout: this.servers.timeoutMs });
    // Let go, or renewed on another connection, while the stream opened: it is not needed.
    if (held.client === client && held.holders > 0) held.stream = stream;
    else await stream.close();
  }
}
