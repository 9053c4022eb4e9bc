import { readFileSync } from 'node:fs';

/**
 * What the calling thread has cost so far, from the kernel's scheduler statistics of this thread
 * (Linux `/proc/thread-self/schedstat`): the CPU time it ran and the time it was ready to run but
 * waited for a core (another thread or process had it). Milliseconds since the thread started.
 */
export interface ThreadCost {
  readonly cpuMs: number;
  readonly waitMs: number;
}

const SCHEDSTAT = '/proc/thread-self/schedstat';

/** This thread's cost so far; undefined where the system does not tell (not Linux, no schedstat). */
export function threadCost(): ThreadCost | undefined {
  let text: string;
  try {
    text = readFileSync(SCHEDSTAT, 'latin1');
  } catch {
    return undefined;
  }
  const [ranNs, waitedNs] = text.trim().split(/\s+/).map(Number);
  if (ranNs === undefined || waitedNs === undefined || !Number.isFinite(ranNs) || !Number.isFinite(waitedNs)) return undefined;
  return { cpuMs: ranNs / 1e6, waitMs: waitedNs / 1e6 };
}

/** The cost between two readings of the same thread (undefined when either is). */
export function costBetween(start: ThreadCost | undefined, end: ThreadCost | undefined): ThreadCost | undefined {
  if (start === undefined || end === undefined) return undefined;
  return { cpuMs: end.cpuMs - start.cpuMs, waitMs: end.waitMs - start.waitMs };
}
