import type { MarginType } from '../engine/types.js';

/**
 * Integer codes of the follower payloads whose meaning the spec does not show (document 001:
 * "Meaning of the integer values of positionType and closeStatus … not shown"). The simulator's choice.
 */

/** positionType: 1 cross margin (the docs' example pairs 1 with an empty liquidationPrice), 2 isolated. */
export const POSITION_TYPE: Readonly<Record<MarginType, number>> = { CROSS: 1, ISOLATED: 2 };

/** Why a copy position was closed. */
export type CloseReason = 'LEADER_CLOSED' | 'STOP_PROFIT' | 'STOP_LOSS';

/** closeStatus: 1 closed because the leader closed, 2 the stop-profit rate was reached, 3 the stop-loss rate. */
export const CLOSE_STATUS: Readonly<Record<CloseReason, number>> = { LEADER_CLOSED: 1, STOP_PROFIT: 2, STOP_LOSS: 3 };
