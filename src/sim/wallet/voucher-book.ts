import type { Decimal } from '../../core/decimal.js';
import { dec, decText } from '../../core/decimal.js';
import { err, ok } from '../../core/result.js';
import { IdSequence } from '../engine/ids.js';
import type { SimReject, SimResult } from '../engine/types.js';

export type VoucherStatus = 'NOT_USED' | 'USING' | 'USED' | 'FROZEN';
export const VOUCHER_STATUSES: readonly [VoucherStatus, ...VoucherStatus[]] = ['NOT_USED', 'USING', 'USED', 'FROZEN'];

/** A trial voucher as GET /api/v2/futures/voucher/list shows it (API-NOTES §4.18). */
export interface VoucherView {
  readonly relationId: string;
  readonly token: string;
  readonly amount: string;
  readonly voucherBalance: string;
  readonly voucherStatus: VoucherStatus;
  readonly createTime: number;
  readonly expireTime: number;
  /** Futures trading volume (quote coin) the user must have traded before receiving it; "0": none. */
  readonly thresholdVolume: string;
  readonly claimThreshold: string;
}

interface VoucherRecord {
  readonly relationId: string;
  readonly userId: string;
  readonly token: string;
  readonly amount: Decimal;
  balance: Decimal;
  status: VoucherStatus;
  readonly createTime: number;
  readonly expireTime: number;
  readonly threshold: Decimal;
}

const DAY_MS = 86_400_000;
const VALID_MS = 30 * DAY_MS;

/** The vouchers every simulated user is granted at start: one free to receive, one behind a trading threshold. */
const GRANTS: readonly { readonly amount: string; readonly threshold: string }[] = [
  { amount: '50', threshold: '0' },
  { amount: '100', threshold: '500' },
];

/** Voucher codes -1400…-1417 (API-NOTES §3, messages from ccxt). */
const refuse = {
  notFound: (): SimReject => ({ code: -1405, msg: 'Voucher not found.' }),
  inUse: (): SimReject => ({ code: -1406, msg: 'Voucher already in use.' }),
  threshold: (volume: string, token: string): SimReject => ({ code: -1407, msg: `Voucher threshold not met: futures trading volume ${volume} ${token} required.` }),
  status: (): SimReject => ({ code: -1409, msg: 'Voucher status invalid.' }),
};

/**
 * The trial vouchers of every user (document 000, 2026-07-13): granted at start, listed by token and
 * status, received once (NOT_USED → USING) when the user's futures trading volume meets the voucher's
 * threshold. A received voucher's balance shows as `coupon` in the futures balance; the simulator does
 * not spend it on margin or fees.
 */
export class VoucherBook {
  private readonly ids = new IdSequence('9876');
  private readonly records = new Map<string, VoucherRecord>();

  /** Grants the start-up vouchers of a user in `token` at `time`. */
  grant(userId: string, token: string, time: number): void {
    for (const g of GRANTS) {
      const relationId = this.ids.next();
      this.records.set(relationId, {
        relationId,
        userId,
        token,
        amount: dec(g.amount),
        balance: dec(g.amount),
        status: 'NOT_USED',
        createTime: time,
        expireTime: time + VALID_MS,
        threshold: dec(g.threshold),
      });
    }
  }

  list(userId: string, token: string, status: VoucherStatus | undefined, now: number): readonly VoucherView[] {
    const out: VoucherView[] = [];
    for (const v of this.records.values()) {
      if (v.userId !== userId || v.token !== token) continue;
      const view = viewOf(v, now);
      if (status === undefined || view.voucherStatus === status) out.push(view);
    }
    return out;
  }

  /** Receives a voucher; `tradedVolume` is the user's futures trading volume in the voucher's token. */
  receive(userId: string, relationId: string, now: number, tradedVolume: (token: string) => Decimal): SimResult<VoucherView> {
    const v = this.records.get(relationId);
    if (v === undefined || v.userId !== userId) return err(refuse.notFound());
    if (v.status === 'USING' || v.status === 'USED') return err(refuse.inUse());
    if (v.status !== 'NOT_USED' || now >= v.expireTime) return err(refuse.status());
    if (tradedVolume(v.token).lt(v.threshold)) return err(refuse.threshold(decText(v.threshold), v.token));
    v.status = 'USING';
    return ok(viewOf(v, now));
  }

  /** Balance of the user's received, unexpired vouchers in `token` (the futures balance's `coupon`). */
  coupon(userId: string, token: string, now: number): Decimal {
    let sum = dec(0);
    for (const v of this.records.values()) if (v.userId === userId && v.token === token && viewOf(v, now).voucherStatus === 'USING') sum = sum.add(v.balance);
    return sum;
  }
}

/** An expired voucher that was never used or is still in use reads as USED (nothing left to spend). */
function viewOf(v: VoucherRecord, now: number): VoucherView {
  const expired = now >= v.expireTime && (v.status === 'NOT_USED' || v.status === 'USING');
  return {
    relationId: v.relationId,
    token: v.token,
    amount: decText(v.amount),
    voucherBalance: decText(expired ? dec(0) : v.balance),
    voucherStatus: expired ? 'USED' : v.status,
    createTime: v.createTime,
    expireTime: v.expireTime,
    thresholdVolume: decText(v.threshold),
    claimThreshold: v.threshold.isZero() ? '' : `futures trading volume${decText(v.threshold)}${v.token}`,
  };
}
