import type { AccountType } from '../types.js';

/** The user relationship a transfer rule needs. */
export interface TransferParty {
  readonly userId: string;
  readonly parentUserId: string | undefined;
}

export interface TransferMove {
  readonly caller: TransferParty;
  readonly from: TransferParty;
  readonly to: TransferParty;
  readonly fromAccountType: AccountType;
  readonly toAccountType: AccountType;
}

/** Which of the spec's six permitted moves this is (1–6), or undefined when it is not permitted. */
export function permittedMove(move: TransferMove): 1 | 2 | 3 | 4 | 5 | 6 | undefined {
  const { caller, from, to, fromAccountType: fa, toAccountType: ta } = move;
  const spotOrContract = (t: AccountType): boolean => t === 'MAIN' || t === 'FUTURES';
  const isSubOf = (u: TransferParty, parent: TransferParty): boolean => u.parentUserId !== undefined && u.parentUserId === parent.userId;
  const callerIsParent = caller.parentUserId === undefined;
  const sameUser = from.userId === to.userId;
  const spotContractPair = (fa === 'MAIN' && ta === 'FUTURES') || (fa === 'FUTURES' && ta === 'MAIN');

  if (callerIsParent) {
    // 1. parent spot → any sub-account spot or contract
    if (from.userId === caller.userId && fa === 'MAIN' && isSubOf(to, caller) && spotOrContract(ta)) return 1;
    // 2. parent spot ↔ parent contract
    if (sameUser && from.userId === caller.userId && spotContractPair) return 2;
    // 3. any sub-account spot or contract → parent spot
    if (isSubOf(from, caller) && spotOrContract(fa) && to.userId === caller.userId && ta === 'MAIN') return 3;
    // 4. spot ↔ contract of one sub-account
    if (sameUser && isSubOf(from, caller) && spotContractPair) return 4;
    return undefined;
  }
  // 5. sub-user: own spot or contract → parent spot
  if (from.userId === caller.userId && spotOrContract(fa) && to.userId === caller.parentUserId && ta === 'MAIN') return 5;
  // 6. sub-user: own spot ↔ own contract
  if (sameUser && from.userId === caller.userId && spotContractPair) return 6;
  return undefined;
}
