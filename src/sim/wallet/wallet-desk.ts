import { createHash } from 'node:crypto';
import type { Decimal } from '../../core/decimal.js';
import { dec, decText } from '../../core/decimal.js';
import { err, ok } from '../../core/result.js';
import type { EngineState } from '../engine/engine-state.js';
import { IdSequence } from '../engine/ids.js';
import type { UserRecord } from '../engine/ledger.js';
import type { SimReject, SimResult } from '../engine/types.js';
import type { ChainRow } from './coin-chains.js';
import { coinRowOf } from './coin-chains.js';

/** addressType of a withdrawal (document 000, 2026-07-07): the last three are platform-internal transfers. */
export type AddressType = 'BLOCK_CHAIN' | 'PHONE_NUMBER' | 'EMAIL' | 'UID';
export const ADDRESS_TYPES: readonly [AddressType, ...AddressType[]] = ['BLOCK_CHAIN', 'PHONE_NUMBER', 'EMAIL', 'UID'];

export interface WithdrawCommand {
  readonly coin: string;
  readonly chainType: string;
  readonly address: string;
  readonly addressExt?: string;
  readonly addressType: AddressType;
  /** Debited from the spot account; the chain's fee comes out of it (arriveQuantity = quantity − fee). */
  readonly quantity: Decimal;
  /** The caller's idempotency key: the same id again answers the first withdrawal and moves nothing. */
  readonly clientOrderId?: string;
}

export interface WithdrawalView {
  readonly id: string;
  readonly clientOrderId: string;
  readonly coin: string;
  readonly chainType: string;
  readonly address: string;
  readonly addressExt: string;
  readonly quantity: string;
  readonly fee: string;
  readonly arriveQuantity: string;
  readonly internal: boolean;
  readonly time: number;
}

/** A deposit credited to a user's spot account; in the simulator only internal transfers from another user arrive. */
export interface DepositView {
  readonly id: string;
  readonly coin: string;
  readonly chainType: string;
  readonly quantity: string;
  /** The sender's user id (internal transfers). */
  readonly fromUserId: string;
  readonly time: number;
}

/** History filter: coin, time range (ms, inclusive) and the newest `limit`. */
export interface WalletHistoryQuery {
  readonly coin?: string;
  readonly startTime?: number;
  readonly endTime?: number;
  readonly limit: number;
}

export interface DepositAddressView {
  readonly coin: string;
  readonly chainType: string;
  readonly address: string;
  readonly addressExt: string;
  readonly canDeposit: boolean;
  readonly minQuantity: string;
}

const refuse = {
  coin: (coin: string): SimReject => ({ code: -1130, msg: `Data sent for paramter 'coin' is not valid. (no coin ${coin})` }),
  chain: (coin: string, chainType: string): SimReject => ({ code: -1130, msg: `Data sent for paramter 'chainType' is not valid. (${coin} does not move on ${chainType})` }),
  address: (chainType: string): SimReject => ({ code: -1130, msg: `Data sent for paramter 'address' is not valid. (not a ${chainType} address)` }),
  recipient: (): SimReject => ({ code: -1153, msg: 'User not found.' }),
  depositClosed: (): SimReject => ({ code: -1182, msg: 'Deposit is not allowed now.' }),
  withdrawClosed: (): SimReject => ({ code: -1181, msg: 'Withdraw is not allowed now.' }),
  belowMin: (min: string, coin: string): SimReject => ({ code: -1130, msg: `Data sent for paramter 'quantity' is not valid. (below the minimum withdrawal ${min} ${coin})` }),
  aboveMax: (max: string, coin: string): SimReject => ({ code: -1130, msg: `Data sent for paramter 'quantity' is not valid. (above the maximum withdrawal ${max} ${coin})` }),
  insufficient: (): SimReject => ({ code: -1131, msg: 'Balance insufficient' }),
};

/** Address formats of the simulated chains; anything else is EVM-like. */
const ADDRESS_FORMATS: Readonly<Record<string, { readonly make: (digest: Buffer) => string; readonly pattern: RegExp }>> = {
  TRX: { make: (d) => `T${base58(d).slice(0, 33)}`, pattern: /^T[1-9A-HJ-NP-Za-km-z]{33}$/ },
  BTC: { make: (d) => `bc1q${bech32Chars(d).slice(0, 38)}`, pattern: /^(bc1[02-9ac-hj-np-z]{11,71}|[13][1-9A-HJ-NP-Za-km-z]{25,34})$/ },
};
const EVM = { make: (d: Buffer) => `0x${d.toString('hex').slice(0, 40)}`, pattern: /^0x[0-9a-fA-F]{40}$/ };

/**
 * The simulated wallet of every user's spot account: one deposit address per coin and chain (stable
 * for a user, derived from the user id), and withdrawals that debit the spot balance at once, within
 * the chain limits exchangeInfo's `coins` publish. A withdrawal to a UID or email of a simulated user
 * is a platform-internal transfer: no fee, credited to that user's spot account.
 */
export class WalletDesk {
  private readonly ids = new IdSequence('4238');
  private readonly byClientId = new Map<string, WithdrawalView>();
  private readonly withdrawalsOf = new Map<string, WithdrawalView[]>();
  private readonly depositsOf = new Map<string, DepositView[]>();

  constructor(private readonly s: EngineState) {}

  depositAddress(userId: string, coin: string, chainType: string): SimResult<DepositAddressView> {
    if (!this.s.users.has(userId)) return err(refuse.recipient());
    const found = chainOf(coin, chainType);
    if (!found.ok) return found;
    const chain = found.value;
    if (!chain.allowDeposit) return err(refuse.depositClosed());
    const digest = createHash('sha256').update(`${userId}|${coin}|${chainType}`).digest();
    return ok({ coin, chainType, address: formatOf(chainType).make(digest), addressExt: '', canDeposit: chain.allowDeposit, minQuantity: chain.minDepositQuantity });
  }

  withdraw(userId: string, c: WithdrawCommand): SimResult<WithdrawalView> {
    const user = this.s.users.get(userId);
    if (user === undefined) return err(refuse.recipient());
    const key = c.clientOrderId === undefined ? undefined : `${userId}|${c.clientOrderId}`;
    const earlier = key === undefined ? undefined : this.byClientId.get(key);
    if (earlier !== undefined) return ok(earlier);
    const found = chainOf(c.coin, c.chainType);
    if (!found.ok) return found;
    const chain = found.value;
    if (!chain.allowWithdraw) return err(refuse.withdrawClosed());
    const recipient = this.recipientOf(c);
    if (!recipient.ok) return recipient;
    if (c.quantity.lt(chain.minWithdrawQuantity)) return err(refuse.belowMin(chain.minWithdrawQuantity, c.coin));
    if (dec(chain.maxWithdrawQuantity).gt(0) && c.quantity.gt(chain.maxWithdrawQuantity)) return err(refuse.aboveMax(chain.maxWithdrawQuantity, c.coin));
    const internal = recipient.value !== undefined;
    const fee = internal ? dec(0) : dec(chain.withdrawFee);
    if (c.quantity.lte(fee)) return err(refuse.belowMin(decText(fee), c.coin));
    const balance = user.spot.get(c.coin) ?? dec(0);
    if (balance.lt(c.quantity)) return err(refuse.insufficient());
    const arrive = c.quantity.sub(fee);
    this.move(user, c.coin, c.quantity.neg(), 'WITHDRAW');
    const id = this.ids.next();
    if (recipient.value !== undefined) {
      this.move(recipient.value, c.coin, arrive, 'DEPOSIT');
      const deposit: DepositView = { id: this.ids.next(), coin: c.coin, chainType: c.chainType, quantity: decText(arrive), fromUserId: userId, time: this.s.time };
      append(this.depositsOf, recipient.value.userId, deposit);
    }
    const view: WithdrawalView = {
      id,
      clientOrderId: c.clientOrderId ?? id,
      coin: c.coin,
      chainType: c.chainType,
      address: c.address,
      addressExt: c.addressExt ?? '',
      quantity: decText(c.quantity),
      fee: decText(fee),
      arriveQuantity: decText(arrive),
      internal,
      time: this.s.time,
    };
    if (key !== undefined) this.byClientId.set(key, view);
    append(this.withdrawalsOf, userId, view);
    return ok(view);
  }

  /** A user's withdrawals, newest first. */
  withdrawals(userId: string, q: WalletHistoryQuery): readonly WithdrawalView[] {
    return newest(this.withdrawalsOf.get(userId) ?? [], q);
  }

  /** Deposits credited to a user, newest first. */
  deposits(userId: string, q: WalletHistoryQuery): readonly DepositView[] {
    return newest(this.depositsOf.get(userId) ?? [], q);
  }

  /** Undefined for a chain withdrawal (after checking the address), the receiving user for an internal one. */
  private recipientOf(c: WithdrawCommand): SimResult<UserRecord | undefined> {
    const address = c.address.trim();
    switch (c.addressType) {
      case 'BLOCK_CHAIN':
        return formatOf(c.chainType).pattern.test(address) ? ok(undefined) : err(refuse.address(c.chainType));
      case 'UID': {
        const user = this.s.users.get(address);
        return user === undefined ? err(refuse.recipient()) : ok(user);
      }
      case 'EMAIL': {
        const user = [...this.s.users.values()].find((u) => u.email.toLowerCase() === address.toLowerCase());
        return user === undefined ? err(refuse.recipient()) : ok(user);
      }
      case 'PHONE_NUMBER':
        // Simulated users have no phone numbers.
        return err(refuse.recipient());
    }
  }

  private move(user: UserRecord, coin: string, change: Decimal, kind: 'WITHDRAW' | 'DEPOSIT'): void {
    const total = (user.spot.get(coin) ?? dec(0)).add(change);
    user.spot.set(coin, total);
    this.s.flows.record({ userId: user.userId, accountId: user.mainAccountId, accountType: 'MAIN', category: undefined, coin, kind, symbol: undefined, change, total, time: this.s.time });
  }
}

function append<T>(map: Map<string, T[]>, userId: string, row: T): void {
  const rows = map.get(userId);
  if (rows === undefined) map.set(userId, [row]);
  else rows.push(row);
}

function newest<T extends { readonly coin: string; readonly time: number }>(rows: readonly T[], q: WalletHistoryQuery): T[] {
  const out: T[] = [];
  for (let i = rows.length - 1; i >= 0 && out.length < q.limit; i--) {
    const row = rows[i];
    if (row === undefined) continue;
    if (q.coin !== undefined && q.coin !== '' && row.coin !== q.coin) continue;
    if (q.startTime !== undefined && row.time < q.startTime) continue;
    if (q.endTime !== undefined && row.time > q.endTime) continue;
    out.push(row);
  }
  return out;
}

function chainOf(coin: string, chainType: string): SimResult<ChainRow> {
  if (coin === '') return err(refuse.coin(coin));
  const row = coinRowOf(coin);
  const chain = row.chains.find((c) => c.chainType === chainType);
  return chain === undefined ? err(refuse.chain(coin, chainType)) : ok(chain);
}

function formatOf(chainType: string): { readonly make: (digest: Buffer) => string; readonly pattern: RegExp } {
  return ADDRESS_FORMATS[chainType] ?? EVM;
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

/** Digits of the digest in an alphabet: enough characters for an address, not a checksummed encoding. */
function inAlphabet(digest: Buffer, alphabet: string, length: number): string {
  let n = BigInt(`0x${digest.toString('hex')}${digest.toString('hex')}`);
  const base = BigInt(alphabet.length);
  let out = '';
  while (out.length < length) {
    out += alphabet[Number(n % base)] ?? '';
    n /= base;
  }
  return out;
}

function base58(digest: Buffer): string {
  return inAlphabet(digest, BASE58, 33);
}

function bech32Chars(digest: Buffer): string {
  return inAlphabet(digest, BECH32, 38);
}
