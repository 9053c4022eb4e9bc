import { dec } from '../../../src/core/decimal.js';
import type { Decimal } from '../../../src/core/decimal.js';
import type { LeaderTrade } from '../../../src/sim/copy-trading/index.js';
import { CLOSE_STATUS, POSITION_TYPE } from '../../../src/sim/copy-trading/index.js';
import { BTC_SWAP_USDT, ETH_SWAP_USDT } from '../../../src/sim/market-stream/instruments.js';
import { followerHistoryPageSchema, followerPositionsSchema, leaderSummariesSchema } from '../../../src/venue/parsers/follower.js';
import type { FollowerHistoryRow, FollowerPosition } from '../../../src/venue/parsers/follower.js';
import { ETH, FOLLOWER, HOUR, MINUTE, S5, T0, TORTOISE, call, follow, followerUser, generatedRig, parsed, runTo } from './fixtures.js';
import type { Rig } from './fixtures.js';

/** Followers of one run, each with a different follow. */
const FIXED = FOLLOWER; // fixed amount 100 USDT a copy, leverage 10, S5
const RATE = '900000002'; // fixed rate, investAmount 2000, maxInvestRate 0.05, S5
const ISOLATED_ONLY = '900000003'; // S5 (cross) with followMarginType 2: never copies; Tortoise (isolated): copies
const ETH_CROSS = '900000004'; // S5, ETH only, cross only
const FOLLOW_AT = T0 + 10 * MINUTE;
const END = T0 + 4 * HOUR;

const coinStep = (symbol: string): Decimal => (symbol === ETH ? dec(ETH_SWAP_USDT.quantityStep).mul(ETH_SWAP_USDT.contractMultiplier) : dec(BTC_SWAP_USDT.quantityStep).mul(BTC_SWAP_USDT.contractMultiplier));
const floorTo = (value: Decimal, step: Decimal): Decimal => value.divToInt(step).mul(step);

interface Copy {
  readonly symbolId: string;
  readonly isLong: 0 | 1;
  readonly openTimeMs: number;
  readonly openAvgPrice: string;
  readonly quantity: string;
  readonly positionType: number;
  readonly closed?: FollowerHistoryRow;
}

function copiesOf(r: Rig, userId: string): Copy[] {
  const current = parsed(call(r, 'followerCurrent', { userId }), followerPositionsSchema, 'followerCurrent');
  const history = parsed(call(r, 'followerHistory', { userId, query: { size: '100' } }), followerHistoryPageSchema, 'followerHistory');
  expect(history.total).toBeLessThanOrEqual(100);
  const open = current.map((p: FollowerPosition): Copy => {
    expect(p.openAvgPrice).toBeDefined();
    return { symbolId: p.symbolId, isLong: p.isLong, openTimeMs: -1, openAvgPrice: p.openAvgPrice?.toFixed() ?? '', quantity: p.quantity?.toFixed() ?? '', positionType: p.positionType };
  });
  const closed = history.list.map(
    (h): Copy => ({ symbolId: h.symbolId, isLong: h.isLong, openTimeMs: h.openTimeMs, openAvgPrice: h.openAvgPrice.toFixed(), quantity: h.closedQuantity.toFixed(), positionType: h.positionType, closed: h }),
  );
  return [...open, ...closed];
}

/** The copy of a leader open: same symbol, side and price (current rows carry no open time). */
function copyOf(copies: readonly Copy[], t: LeaderTrade): Copy | undefined {
  const p = t.position;
  return copies.find((c) => c.symbolId === p.symbol && c.isLong === (p.isLong ? 1 : 0) && c.openAvgPrice === p.openPrice.toFixed() && (c.openTimeMs === -1 || c.openTimeMs === t.time));
}

describe('copies on a generated market', () => {
  const r = generatedRig({
    seed: 42,
    users: [followerUser(FIXED), followerUser(RATE), followerUser(ISOLATED_ONLY), followerUser(ETH_CROSS)],
    leaders: [S5, TORTOISE],
  });
  runTo(r, FOLLOW_AT);
  const before = r.trades.length;
  follow(r, S5.leaderUserId, {}, FIXED);
  follow(r, S5.leaderUserId, { followAmountMode: 1, investAmount: '2000', realInvestAmount: '2000', maxInvestRate: '0.05' }, RATE);
  follow(r, S5.leaderUserId, { followMarginType: 2 }, ISOLATED_ONLY);
  follow(r, TORTOISE.leaderUserId, { followMarginType: 2, leverage: '0' }, ISOLATED_ONLY);
  follow(r, S5.leaderUserId, { followMarginType: 1, followSymbolIds: ETH }, ETH_CROSS);
  runTo(r, END);
  const after = r.trades.slice(before);
  const s5Opens = after.filter((t) => t.kind === 'open' && t.position.leaderUserId === S5.leaderUserId);
  const s5Closes = after.filter((t) => t.kind === 'close' && t.position.leaderUserId === S5.leaderUserId && t.position.openTime >= FOLLOW_AT);

  it('sees leaders trade over hours of virtual time', () => {
    expect(s5Opens.length).toBeGreaterThan(10);
    expect(s5Closes.length).toBeGreaterThan(5);
  });

  it('copies every lead open with a fixed amount of margin per order', () => {
    const copies = copiesOf(r, FIXED);
    expect(copies).toHaveLength(s5Opens.length);
    for (const t of s5Opens) {
      const c = copyOf(copies, t);
      expect(c).toBeDefined();
      const p = t.position;
      // 100 USDT at leverage 10, on the coin grid.
      expect(c?.quantity).toBe(floorTo(dec(1000).div(p.openPrice), coinStep(p.symbol)).toFixed());
      expect(c?.positionType).toBe(POSITION_TYPE.CROSS);
    }
  });

  it('closes the copies when the leader closes, at the leader price', () => {
    const copies = copiesOf(r, FIXED);
    for (const t of s5Closes) {
      if (t.kind !== 'close') continue;
      const c = copies.find((x) => x.closed !== undefined && x.openTimeMs === t.position.openTime && x.symbolId === t.position.symbol);
      expect(c?.closed?.lastCloseTimeMs).toBe(t.time);
      expect(c?.closed?.closeAvgPrice.toFixed()).toBe(t.closePrice.toFixed());
      expect(c?.closed?.closeStatus).toBe(CLOSE_STATUS.LEADER_CLOSED);
      const row = c?.closed;
      if (row === undefined) continue;
      const move = row.closeAvgPrice.sub(row.openAvgPrice).mul(row.closedQuantity);
      expect(row.realizedProfit.toFixed()).toBe((row.isLong === 1 ? move : move.neg()).toDecimalPlaces(8).toFixed());
      expect(row.maxPositionQuantity.toFixed()).toBe(row.closedQuantity.toFixed());
    }
    // What is still open is what the leader still holds.
    const open = copies.filter((c) => c.closed === undefined);
    expect(open).toHaveLength(r.desk.leaderPositions(S5.leaderUserId).filter((p) => p.openTime >= FOLLOW_AT).length);
  });

  it('sizes fixed-rate copies from the leader margin share, capped by maxInvestRate', () => {
    const copies = copiesOf(r, RATE);
    let capped = 0;
    for (const t of s5Opens) {
      if (t.kind !== 'open') continue;
      const p = t.position;
      const share = p.margin.div(t.marginBalanceBefore).mul(2000);
      const cap = dec(2000).mul('0.05');
      if (share.gt(cap)) capped++;
      const margin = share.lt(cap) ? share : cap;
      expect(copyOf(copies, t)?.quantity).toBe(floorTo(margin.mul(10).div(p.openPrice), coinStep(p.symbol)).toFixed());
    }
    expect(capped).toBeGreaterThan(0);
    expect(capped).toBeLessThan(s5Opens.length);
  });

  it('filters by margin type and symbol', () => {
    const isolated = copiesOf(r, ISOLATED_ONLY);
    const tortoiseOpens = after.filter((t) => t.kind === 'open' && t.position.leaderUserId === TORTOISE.leaderUserId);
    expect(tortoiseOpens.length).toBeGreaterThan(3);
    expect(isolated).toHaveLength(tortoiseOpens.length);
    expect(isolated.every((c) => c.positionType === POSITION_TYPE.ISOLATED && c.symbolId === ETH)).toBe(true);
    // leverage 0 follows the leader's leverage (5).
    const rows = parsed(call(r, 'followerHistory', { userId: ISOLATED_ONLY, query: { size: '100' } }), followerHistoryPageSchema, 'followerHistory').list;
    expect(rows.every((row) => row.leverage.eq(5) && row.leaderNickname === 'Tortoise')).toBe(true);

    const eth = copiesOf(r, ETH_CROSS);
    const ethOpens = s5Opens.filter((t) => t.position.symbol === ETH);
    expect(ethOpens.length).toBeGreaterThan(0);
    expect(ethOpens.length).toBeLessThan(s5Opens.length);
    expect(eth).toHaveLength(ethOpens.length);
    expect(eth.every((c) => c.symbolId === ETH)).toBe(true);
  });

  it('reports leader summaries consistent with the leader positions and trades', () => {
    const rows = parsed(call(r, 'followerLeaders', { userId: ISOLATED_ONLY }), leaderSummariesSchema, 'followerLeaders');
    expect(rows.map((l) => l.leaderUserId)).toEqual([S5.leaderUserId, TORTOISE.leaderUserId]);
    for (const [row, config] of [
      [rows[0], S5],
      [rows[1], TORTOISE],
    ] as const) {
      const realised = r.trades.reduce((sum, t) => (t.kind === 'close' && t.position.leaderUserId === config.leaderUserId ? sum.add(t.realizedProfit) : sum), dec(0));
      const positions = r.desk.leaderPositions(config.leaderUserId);
      const unrealised = positions.reduce((sum, p) => {
        const move = dec(r.ex.markPrice(p.symbol) ?? '0').sub(p.openPrice).mul(p.quantity);
        return sum.add(p.isLong ? move : move.neg());
      }, dec(0));
      const margin = positions.reduce((sum, p) => sum.add(p.margin), dec(0));
      const balance = dec(config.marginBalance).add(realised).add(unrealised);
      expect(row?.leaderNickname).toBe(config.nickname);
      expect(row?.realisedProfit.toFixed()).toBe(realised.toDecimalPlaces(8).toFixed());
      expect(row?.unrealisedPnl.toFixed()).toBe(unrealised.toDecimalPlaces(8).toFixed());
      expect(row?.marginBalance.toFixed()).toBe(balance.toDecimalPlaces(8).toFixed());
      expect(row?.availableMargin.toFixed()).toBe(balance.sub(margin).toDecimalPlaces(8).toFixed());
      expect(row?.holdingProfitSharing.isZero()).toBe(true);
      expect(row?.settledProfitSharing.isZero()).toBe(true);
      expect(row?.netProfit.toFixed()).toBe(row?.realisedProfit.toFixed());
    }
  });

  it('shows current positions with mark and last prices and PnL at the mark', () => {
    const raw = call(r, 'followerCurrent', { userId: FIXED });
    const rows = parsed(raw, followerPositionsSchema, 'followerCurrent');
    expect(rows.length).toBeGreaterThan(0);
    for (const p of rows) {
      expect(p.leaderNickname).toBe('S5');
      expect(p.markPrice?.toFixed()).toBe(r.ex.markPrice(p.symbolId));
      expect(p.currentPrice?.toFixed()).toBe(r.ex.lastPrice(p.symbolId));
      const move = (p.markPrice ?? dec(0)).sub(p.openAvgPrice ?? dec(0)).mul(p.quantity ?? dec(0));
      expect(p.unrealizedProfit?.toFixed()).toBe((p.isLong === 1 ? move : move.neg()).toDecimalPlaces(8).toFixed());
      expect(p.liquidationPrice).toBeUndefined();
      expect(p.stopProfitRate).toBeUndefined();
    }
  });
});
