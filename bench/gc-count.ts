import { constants, PerformanceObserver } from 'node:perf_hooks';
import type { PerformanceEntry } from 'node:perf_hooks';

/** GC of this thread's heap over a stretch of work: young-generation scavenges, other collections, their summed pauses. */
export interface GcCount {
  readonly scavenges: number;
  readonly others: number;
  readonly ms: number;
}

/**
 * Counts this thread's GC events from now until the returned `stop` resolves. V8 reports each pause to
 * the observer's buffer on the next turn of the event loop after it: `stop` turns the loop once and
 * takes what is buffered.
 */
export function countGc(): { stop(): Promise<GcCount> } {
  let scavenges = 0;
  let others = 0;
  let ms = 0;
  const add = (entries: readonly PerformanceEntry[]): void => {
    for (const entry of entries) {
      // A gc entry's detail: { kind, flags } (NodeGCPerformanceDetail).
      const detail = (entry as unknown as { readonly detail?: { readonly kind?: number } }).detail;
      if (detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) scavenges++;
      else others++;
      ms += entry.duration;
    }
  };
  const observer = new PerformanceObserver((list) => add(list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  return {
    async stop(): Promise<GcCount> {
      await new Promise((resolve) => setImmediate(resolve));
      add(observer.takeRecords());
      observer.disconnect();
      return { scavenges, others, ms };
    },
  };
}
