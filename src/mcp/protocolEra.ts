/**
 * Which protocol era each server speaks, and how a connection finds out. MCP 2026-07-28 (the modern
 * era: `server/discover`, no handshake, no session) and the revisions before it (the legacy era:
 * `initialize`) need different openings; a server may speak one or both. `auto` (the default) asks
 * with `server/discover` and falls back to `initialize`; the answer is remembered per server
 * configuration (the fingerprint of its command or URL), so the next start skips the question:
 * stdio servers would otherwise pay a second process or a probe timeout on every start, and no round
 * ever waits on it twice. A remembered answer that stops working is forgotten, and the next start asks
 * again; a remembered legacy answer is asked again after a day, since an upgraded server that still
 * answers `initialize` would never say it speaks the newer era.
 */
import { createHash } from 'node:crypto';
import { ProtocolError, SdkError, SdkErrorCode, type DiscoverResult, type PriorDiscovery, type VersionNegotiationOptions } from '@modelcontextprotocol/client';
import { ConfigError } from '../agent/settings';
import type { McpServerConfig } from './config';

export const PROTOCOL_SETTINGS = ['auto', 'legacy', '2026-07-28'] as const;
/** `sprout.mcp.protocol` / `SPROUT_AGENT_MCP_PROTOCOL`. */
export type ProtocolSetting = (typeof PROTOCOL_SETTINGS)[number];
export type ProtocolEra = 'modern' | 'legacy';

export const MODERN_REVISION = '2026-07-28';

/** What was learned about a server's era, and when (`sse`: an HTTP server that has only the old HTTP+SSE transport). */
export type RememberedEra = { era: 'modern'; discover: DiscoverResult; at: number } | { era: 'legacy'; at: number; sse?: true };

/** Where answers are kept: in memory for one process, or somewhere that outlives it (a private file, the editor's storage). */
export interface EraStore {
  get(key: string): RememberedEra | undefined;
  /** `undefined` forgets. */
  set(key: string, value: RememberedEra | undefined): void;
}

/** A legacy answer older than this is asked again. */
export const LEGACY_ANSWER_TTL_MS = 24 * 60 * 60_000;

export function memoryEraStore(initial: Record<string, RememberedEra> = {}): EraStore {
  const map = new Map(Object.entries(initial));
  return { get: (key) => map.get(key), set: (key, value) => void (value === undefined ? map.delete(key) : map.set(key, value)) };
}

/** A server's configuration as a key: a digest, so header values (secrets) never reach the store. */
export function eraKey(config: McpServerConfig): string {
  return createHash('sha256').update(JSON.stringify([config.name, config.transport])).digest('hex').slice(0, 32);
}

/** How one connection opens: the SDK's negotiation options, and the remembered answer it starts from (if any). */
export interface EraPlan {
  negotiation: VersionNegotiationOptions | undefined;
  prior: PriorDiscovery | undefined;
  /**
   * The connection finds the era out (a probe runs, or `initialize` after a stdio server exited on the
   * probe), so what it learns is worth keeping.
   */
  asks: boolean;
  /** Open the old HTTP+SSE transport instead of Streamable HTTP (always the legacy era). */
  sse: boolean;
}

/** The old HTTP+SSE transport: the legacy era, `initialize` on the event stream's endpoint. */
export function ssePlan(asks: boolean): EraPlan {
  return { negotiation: undefined, prior: undefined, asks, sse: true };
}

export function eraPlan(setting: ProtocolSetting, remembered: RememberedEra | undefined, now: number, probeTimeoutMs: number): EraPlan {
  const probe = { timeoutMs: probeTimeoutMs };
  const fresh = remembered !== undefined && now - remembered.at < LEGACY_ANSWER_TTL_MS;
  if (remembered?.era === 'legacy' && remembered.sse === true && fresh && setting !== MODERN_REVISION) return ssePlan(false);
  if (setting === 'legacy') return { negotiation: undefined, prior: undefined, asks: false, sse: false };
  if (setting === MODERN_REVISION) {
    const prior = remembered?.era === 'modern' ? { kind: 'modern' as const, discover: remembered.discover } : undefined;
    return { negotiation: { mode: { pin: MODERN_REVISION }, probe }, prior, asks: prior === undefined, sse: false };
  }
  const auto = { mode: 'auto' as const, probe };
  if (remembered?.era === 'modern') return { negotiation: auto, prior: { kind: 'modern', discover: remembered.discover }, asks: false, sse: false };
  if (remembered?.era === 'legacy' && fresh) return { negotiation: auto, prior: { kind: 'legacy' }, asks: false, sse: false };
  return { negotiation: auto, prior: undefined, asks: true, sse: false };
}

/** What a connection that is up learned, to keep; undefined when it learned nothing (a pinned legacy setting). */
export function learnedEra(plan: EraPlan, era: ProtocolEra | undefined, discover: DiscoverResult | undefined, now: number): RememberedEra | undefined {
  if (era === 'modern' && discover !== undefined) return { era: 'modern', discover, at: now };
  if (era === 'legacy' && plan.asks && plan.sse) return { era: 'legacy', at: now, sse: true };
  if (era === 'legacy' && plan.asks && plan.negotiation !== undefined) return { era: 'legacy', at: now };
  return undefined;
}

/** Parses the setting's value; an unknown one is an error naming where it came from and what is allowed. */
export function parseProtocolSetting(value: string, source: string): ProtocolSetting {
  const v = value.trim();
  if ((PROTOCOL_SETTINGS as readonly string[]).includes(v)) return v as ProtocolSetting;
  throw new ConfigError(source, `${source}: unknown MCP protocol "${value}". Use auto (the default), legacy (2025-11-25 and before) or 2026-07-28.`);
}

/** How a connection's era reads to a person: "MCP 2026-07-28 (modern era)", "MCP 2025-11-25 (legacy era)". */
export function eraText(era: ProtocolEra, protocolVersion: string | undefined): string {
  return `MCP ${protocolVersion || '(unknown revision)'} (${era} era)`;
}

const SETTING_HINT = 'set sprout.mcp.protocol (in the CLI: SPROUT_AGENT_MCP_PROTOCOL) to auto';
/** The JSON-RPC error a server answers a revision it does not speak with. */
const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** When a start failed because server and setting disagree on the era: the sentence that says so, with the fix. */
export function eraMismatch(error: unknown): string | undefined {
  if (error instanceof ProtocolError && error.code === UNSUPPORTED_PROTOCOL_VERSION) {
    const data = error.data as { supported?: unknown; requested?: unknown } | undefined;
    const supported = Array.isArray(data?.supported) ? data.supported.filter((v) => typeof v === 'string').join(', ') : '';
    const requested = typeof data?.requested === 'string' ? ` and refused ${data.requested}` : '';
    return `the server speaks only MCP ${supported || 'revisions Sprout was not set to'}${requested}: ${SETTING_HINT}`;
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed && /pin/i.test(error.message)) {
    // A server that stopped on the question may be broken rather than of the older era: say only what is known.
    if (/connection closed/i.test(error.message)) return `the server stopped when asked for MCP ${MODERN_REVISION} (server/discover), which the setting requires; if it speaks only the older initialize handshake, ${SETTING_HINT}`;
    return `the server does not speak MCP ${MODERN_REVISION}, which the setting requires (it speaks the older initialize handshake): ${SETTING_HINT}`;
  }
  return undefined;
}
