/** Rate budget lanes: which requests the governor lets go first when it has to hold some. */
export { LANES, laneOf, lanePriority } from './lanes.js';
export type { RateLane } from './lanes.js';
export { insertByLane } from './lane-queue.js';
