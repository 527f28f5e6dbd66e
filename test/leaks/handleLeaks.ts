/**
 * What still keeps this process's event loop alive besides the test runner's own output: servers,
 * sockets, child process handles, watchers (with where they point), and pending timers. The counts are
 * `process.getActiveResourcesInfo()`, which lists only what keeps the loop alive (an `unref`ed handle
 * or timer is not in it); the details come from `process._getActiveHandles()`, Node's undocumented
 * list of those handles' objects, used only for the words (without it, the type names stand).
 */
import { type ChildProcess } from 'node:child_process';
import { Server, Socket } from 'node:net';

import { childrenByStdio } from './processLeaks';

type Handle = { constructor?: { name?: string }; unref?: () => unknown };

/** In-flight requests end on their own (a write to the reporter's pipe, a close under way). */
const TRANSIENT = new Set(['CloseReq', 'WriteWrap', 'ShutdownWrap', 'FSReqCallback', 'FSReqPromise', 'GetAddrInfoReqWrap', 'GetNameInfoReqWrap', 'QueryReqWrap', 'ConnectWrap', 'StatWatcher']);
/** Handles that are the runner's or the process's own. */
const isOwn = (handle: unknown): boolean => handle === process.stdin || handle === process.stdout || handle === process.stderr || handle === (process as { channel?: unknown }).channel;

function activeHandles(): Handle[] {
  const list = (process as unknown as { _getActiveHandles?: () => Handle[] })._getActiveHandles;
  return typeof list === 'function' ? list.call(process).filter((handle) => !isOwn(handle)) : [];
}

function address(server: Server): string {
  const at = server.address();
  if (at === null) return 'not listening';
  return typeof at === 'string' ? at : `${at.address}:${at.port}`;
}

function describe(handle: Handle, owners: Map<unknown, ChildProcess>): string {
  const owner = owners.get(handle);
  if (owner) return `stdio pipe of child process ${owner.pid} (${owner.spawnargs.join(' ').slice(0, 200)})`;
  if (handle instanceof Server) return `${handle.constructor.name} listening on ${address(handle)} (close it, and its open connections)`;
  if (handle instanceof Socket) {
    if (handle.remotePort !== undefined) return `socket ${handle.localAddress}:${handle.localPort} -> ${handle.remoteAddress}:${handle.remotePort}`;
    return 'socket or pipe (a child process stdio, an IPC channel, a unix socket)';
  }
  const child = handle as Partial<ChildProcess>;
  if (child.pid !== undefined && Array.isArray(child.spawnargs)) return `child process ${child.pid} not exited (its handle and stdio): ${child.spawnargs.join(' ').slice(0, 200)}`;
  return `${handle.constructor?.name ?? 'handle'}`;
}

/** Equal lines once, with a count. */
function collapse(texts: string[]): string[] {
  const counts = new Map<string, number>();
  for (const text of texts) counts.set(text, (counts.get(text) ?? 0) + 1);
  return [...counts].map(([text, count]) => (count > 1 ? `${count} x ${text}` : text));
}

export interface HandleLeaks {
  texts: string[];
  release: () => void;
}

export function leakedHandles(): HandleLeaks {
  const kinds = process.getActiveResourcesInfo().filter((kind) => !TRANSIENT.has(kind));
  const handles = activeHandles();
  const owners = childrenByStdio();
  // A child's pipes are named on their own only when its process handle is not (an unref'd child).
  const shown = handles.filter((handle) => !handles.includes(owners.get(handle) as Handle));
  const texts = collapse(shown.map((handle) => describe(handle, owners)));
  const timers = kinds.filter((kind) => kind === 'Timeout').length;
  if (timers > 0) texts.push(`${timers} timer(s) still pending (clear them, or unref() a timer that must not hold the process)`);
  const immediates = kinds.filter((kind) => kind === 'Immediate').length;
  if (immediates > 0) texts.push(`${immediates} setImmediate callback(s) pending`);
  if (handles.length === 0 && typeof (process as { _getActiveHandles?: unknown })._getActiveHandles !== 'function') {
    texts.push(...kinds.filter((kind) => kind !== 'Timeout' && kind !== 'Immediate' && !/^(TTY|Pipe)Wrap$/.test(kind)));
  }
  // After the report the file's process may end: what was reported no longer holds it.
  const release = () => handles.forEach((handle) => handle.unref?.());
  return { texts, release };
}
