/**
 * Margins that scale with what the machine is doing. A test waits on events; where it still needs a
 * bound (a hang guard around a wait, the slack of a bound that is the point of the test), that bound
 * is written for an idle machine and multiplied here by how overloaded the machine is right now: the
 * one-minute load average per CPU, at least 1. On a 2-core machine running a build beside the suite
 * that is several times; on an idle one it changes nothing. Never used for the product's own timers.
 */
import { availableParallelism, loadavg } from 'node:os';

/** How many times busier than its CPUs the machine has been over the last minute (1 when idle). */
export function loadFactor(): number {
  const [oneMinute = 0] = loadavg();
  return Math.min(20, Math.max(1, oneMinute / availableParallelism()));
}

/** `idleMs` as a margin on this machine now. */
export function scaledMs(idleMs: number): number {
  return Math.round(idleMs * loadFactor());
}

/**
 * A scale fixed at the load of this moment, for a file whose windows must stay in proportion to each
 * other (a wait, a delay longer than it, a bound between them) while the load moves.
 */
export function scaleAtLoadNow(): (idleMs: number) => number {
  const factor = loadFactor();
  return (idleMs) => Math.round(idleMs * factor);
}
