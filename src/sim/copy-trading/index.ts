/** Copy trading on the simulated exchange: synthetic leaders, followers' copies and the follower endpoints. */
export type { CopyTradingVenue } from './venue.js';
export type { CopyPositionSnapshot, CopyTradingDeskOptions, HistoryPage, LeaderSummarySnapshot, PositionStopsChange } from './trading-desk.js';
export { CopyTradingDesk } from './trading-desk.js';
export { followerRoutes } from './follower/routes.js';
export type { FollowAmountMode, FollowConfig, FollowConfigRequest, FollowMarginType } from './follow-config.js';
export type { FollowLimits } from './follow-limits.js';
export { DEFAULT_FOLLOW_LIMITS, MIN_STOP_RATE, followLimits } from './follow-limits.js';
export type { LeaderPosition, LeaderTrade } from './leader/position.js';
export type { LeaderFigures } from './leader/trader.js';
export { CLOSE_STATUS, POSITION_TYPE } from './wire-codes.js';
export type { CloseReason } from './wire-codes.js';
export { DEFAULT_HISTORY_SIZE, MAX_HISTORY_SIZE } from './follower/requests.js';
