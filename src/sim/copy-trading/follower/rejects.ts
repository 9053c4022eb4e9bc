import type { SimReject } from '../../engine/types.js';

/** The follower endpoints' refusals (document 001 Errors; API-NOTES §3). */
export const followerRejects = {
  /** -1102: a mandatory field is absent, empty/null, or of the wrong JSON type. */
  missing: (name: string): SimReject => ({ code: -1102, msg: `Mandatory parameter '${name}' was not sent, was empty/null, or malformed.` }),
  /** -1130: a value out of range, with too many decimals, or naming nothing (the exchange spells "paramter"). */
  invalid: (name: string): SimReject => ({ code: -1130, msg: `Data sent for paramter '${name}' is not valid.` }),
  /** -32045: no active follow relationship (API-NOTES §3 RULE: the docs' text). */
  notFollower: (): SimReject => ({ code: -32045, msg: 'Copy trading follower not found.' }),
  /** -120055: Cancel Leader while copy positions of that leader are open. */
  hasCopyPositions: (): SimReject => ({ code: -120055, msg: 'The follower currently has copy position, cannot be removed.' }),
} as const;
