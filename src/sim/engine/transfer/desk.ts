import type { Decimal } from '../../../core/decimal.js';
import { dec } from '../../../core/decimal.js';
import { err, ok } from '../../../core/result.js';
import { accountFigures } from '../account-math.js';
import type { EngineState } from '../engine-state.js';
import type { FuturesAccount, UserRecord } from '../ledger.js';
import { reject } from '../rejects.js';
import { permittedMove } from './rules.js';
import type { AccountRef, AccountType, SimResult, TransferCommand } from '../types.js';

/**
 * Fund movements between a user's spot (MAIN), contract (FUTURES, USDT or USDC) and copy-trading
 * accounts and between a parent and its sub-users: the spec's six permitted moves, with transferId
 * idempotency (the same id again is a no-op; the same id for a different transfer is refused).
 */
export function transferDesk(s: EngineState, balanceChanged: (account: FuturesAccount) => void) {
  const done = new Map<string, string>();

  function futuresOf(user: UserRecord, coin: string): FuturesAccount | undefined {
    return coin === 'USDT' || coin === 'USDC' ? user.futures[coin] : undefined;
  }

  function balanceOf(user: UserRecord, type: AccountType, coin: string): Decimal {
    if (type === 'MAIN') return user.spot.get(coin) ?? dec(0);
    if (type === 'COPY_TRADING') return user.copyTrading.get(coin) ?? dec(0);
    const account = futuresOf(user, coin);
    if (account === undefined) return dec(0);
    // Only what no margin needs may leave a contract account.
    const available = accountFigures(s, account).available;
    return available.lt(account.wallet) ? available : account.wallet;
  }

  function credit(user: UserRecord, type: AccountType, coin: string, amount: Decimal): void {
    const total = (() => {
      if (type === 'MAIN') {
        const next = (user.spot.get(coin) ?? dec(0)).add(amount);
        user.spot.set(coin, next);
        return next;
      }
      if (type === 'COPY_TRADING') {
        const next = (user.copyTrading.get(coin) ?? dec(0)).add(amount);
        user.copyTrading.set(coin, next);
        return next;
      }
      const account = futuresOf(user, coin);
      if (account === undefined) throw new RangeError(`no contract account for ${coin}`);
      account.wallet = account.wallet.add(amount);
      return account.wallet;
    })();
    const accountId = type === 'MAIN' ? user.mainAccountId : type === 'COPY_TRADING' ? user.copyTradingAccountId : (futuresOf(user, coin)?.accountId ?? '');
    s.flows.record({ userId: user.userId, accountId, accountType: type, category: undefined, coin, kind: 'TRANSFER', symbol: undefined, change: amount, total, time: s.time });
    if (type === 'FUTURES') {
      const account = futuresOf(user, coin);
      if (account !== undefined) balanceChanged(account);
    }
  }

  return {
    transfer(callerUserId: string, c: TransferCommand): SimResult<{ readonly replayed: boolean }> {
      const caller = s.users.get(callerUserId);
      const from = s.users.get(c.fromUserId);
      const to = s.users.get(c.toUserId);
      if (caller === undefined || from === undefined || to === undefined) return err(reject.userNotFound());
      const fingerprint = JSON.stringify([c.fromUserId, c.toUserId, c.fromAccountType, c.toAccountType, c.coin, c.quantity.toFixed()]);
      if (c.transferId !== undefined) {
        const previous = done.get(`${callerUserId}|${c.transferId}`);
        if (previous !== undefined) return previous === fingerprint ? ok({ replayed: true }) : err(reject.duplicateTransfer());
      }
      if (c.fromUserId === c.toUserId && c.fromAccountType === c.toAccountType) return err(reject.sameAccount());
      if (permittedMove({ caller, from, to, fromAccountType: c.fromAccountType, toAccountType: c.toAccountType }) === undefined) return err(reject.notAuthorised());
      if (c.quantity.lte(0)) return err(reject.param('quantity'));
      if ((c.fromAccountType === 'FUTURES' || c.toAccountType === 'FUTURES') && c.coin !== 'USDT' && c.coin !== 'USDC') return err(reject.param('coin'));
      if (balanceOf(from, c.fromAccountType, c.coin).lt(c.quantity)) return err(reject.insufficientBalance());
      credit(from, c.fromAccountType, c.coin, c.quantity.neg());
      credit(to, c.toAccountType, c.coin, c.quantity);
      if (c.transferId !== undefined) done.set(`${callerUserId}|${c.transferId}`, fingerprint);
      return ok({ replayed: false });
    },

    deposit(target: AccountRef | { readonly userId: string; readonly accountType: 'MAIN' | 'COPY_TRADING' }, coin: string, amount: Decimal): void {
      const user = s.users.get(target.userId);
      if (user === undefined) throw new RangeError(`unknown user ${target.userId}`);
      credit(user, 'category' in target ? 'FUTURES' : target.accountType, 'category' in target ? target.category : coin, amount);
    },
  };
}
