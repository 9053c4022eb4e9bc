import type { RateLane } from './lanes.js';
import { lanePriority } from './lanes.js';

/**
 * Inserts `item` after every queued item of its lane or a more urgent one, before the first of a less
 * urgent lane: the queue stays ordered by lane, and by arrival within a lane.
 */
export function insertByLane<T extends { readonly lane: RateLane }>(queue: T[], item: T): void {
  const priority = lanePriority(item.lane);
  let at = queue.length;
  while (at > 0 && lanePriority(queue[at - 1]!.lane) > priority) at--;
  queue.splice(at, 0, item);
}
