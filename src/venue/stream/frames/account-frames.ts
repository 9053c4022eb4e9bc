import { z } from 'zod';
import { dec } from '../../../core/decimal.js';
import type { BalanceUpdated, PositionUpdated } from '../../../model/account-events.js';
import { marginType, positionSide } from '../../../protocol/wire-enums.js';
import { decimal, epochMs, optDecimal } from '../../wire/schema.js';
import { tolerantList } from '../../wire/tolerant-list.js';

/** `outboundContractAccountInfo` and `outboundContractPositionInfo` (document 001 "Events"). */

const balanceRow = z.object({ a: z.string(), f: decimal, l: decimal });
/** A balance row without asset, free or locked is skipped and counted; the frame's other rows still apply. */
export const accountInfoSchema = z.object({ E: epochMs, B: tolerantList(balanceRow) });

/** One balance per `B` row. `f` is free (excluding unrealized PnL), `l` position plus order margin: the wallet is their sum. The frame has no unrealized PnL. */
export function balanceItems(info: z.output<typeof accountInfoSchema>): BalanceUpdated[] {
  return info.B.map((row) => ({
    type: 'account.balance',
    source: 'stream',
    time: info.E,
    balance: { asset: row.a, walletBalance: row.f.add(row.l), availableBalance: row.f, lockedMargin: row.l, unrealizedPnl: dec(0), updateTime: info.E },
  }));
}

export const positionInfoSchema = z.object({
  E: epochMs,
  s: z.string(),
  S: positionSide,
  p: decimal,
  P: decimal,
  f: optDecimal,
  m: decimal,
  r: decimal,
  up: decimal,
  v: decimal,
  mt: marginType.optional(),
  mp: optDecimal,
});

/** `P` is the position in contracts; a zero liquidation or mark price means "none". */
export function positionItem(p: z.output<typeof positionInfoSchema>): PositionUpdated {
  return {
    type: 'account.position',
    source: 'stream',
    time: p.E,
    position: {
      symbol: p.s,
      positionSide: p.S,
      qty: p.P,
      avgPrice: p.p,
      leverage: p.v,
      ...(p.mt === undefined ? {} : { marginType: p.mt }),
      margin: p.m,
      unrealizedPnl: p.up,
      realizedPnl: p.r,
      ...(p.f === undefined || p.f.isZero() ? {} : { liquidationPrice: p.f }),
      ...(p.mp === undefined || p.mp.isZero() ? {} : { markPrice: p.mp }),
      updateTime: p.E,
    },
  };
}
