/**
 * Who may sample in the headless CLI: nobody is there to ask, so a server's `sampling/createMessage`
 * reaches the model only when the run named the server with `--allow-sampling`; every other server's
 * request is refused with an MCP error saying which flag would allow it.
 */
import type { SamplingPermission } from '../mcp/clientFeatures';
import { UsageError } from './exitCodes';

/** A name that is no server of this run is a usage error (a typo would otherwise refuse silently). */
export function samplingPolicy(allowed: readonly string[], servers: readonly string[]): SamplingPermission {
  const unknown = allowed.filter((name) => !servers.includes(name));
  if (unknown.length > 0) {
    const known = servers.length === 0 ? 'this run starts no servers' : `this run's servers: ${servers.join(', ')}`;
    throw new UsageError(`--allow-sampling ${unknown.join(', ')}: no server of that name (${known}).`);
  }
  const set = new Set(allowed);
  return { by: 'policy', allow: async (request) => set.has(request.server) };
}
