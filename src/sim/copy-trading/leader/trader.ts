import type { Decimal } from '../../../core/decimal.js';
import { dec } from '../../../core/decimal.js';
import type { SimLeaderConfig } from '../../config/sim-config.js';
import { Prng } from '../../market-stream/prng.js';
import type { CopyTradingVenue } from '../venue.js';
import { DecisionClock } from '../decision-clock.js';
import type { LeaderPosition, LeaderTrade } from './position.js';
import { initialMargin, pnlAt, quantityForMargin } from '../position-math.js';

export type PriceSource = Pick<CopyTradingVenue, 'lastPrice' | 'markPrice' | 'instrument'>;

/** The leader summary of GET /leaders, as decimals. */
export interface LeaderFigures {
  /** Wallet (configured balance plus realised profit) plus unrealised PnL. */
  readonly marginBalance: Decimal;
  /** Margin balance less the margin of open positions, not below 0. */
  readonly availableMargin: Decimal;
  readonly unrealisedPnl: Decimal;
  readonly realisedProfit: Decimal;
  /** The simulator charges no profit sharing: both are 0. */
  readonly holdingProfitSharing: Decimal;
  readonly settledProfitSharing: Decimal;
  /** Realised profit less profit sharing (the docs' example: 0 − 0.58 = −0.58). */
  readonly netProfit: Decimal;
}

/** A leader holds at most this many positions; with none it opens, at the cap it closes. */
const MAX_OPEN_POSITIONS = 3;
/** An open commits 2% to 10% of the available margin (basis points). */
const MIN_SHARE_BP = 200;
const MAX_SHARE_BP = 1000;

/**
 * A synthetic lead trader from the sim config. At each decision (DecisionClock) it opens a position,
 * long or short, on one of its symbols at the current last price, sized from its available margin
 * and leverage, or closes one of its open positions there. At most one position per symbol and side.
 */
export class LeaderTrader {
  private readonly schedule: DecisionClock;
  private readonly choices: Prng;
  private readonly open: LeaderPosition[] = [];
  private realised = dec(0);

  constructor(
    readonly config: SimLeaderConfig,
    seed: number,
    startTime: number,
  ) {
    this.schedule = new DecisionClock(seed, config.leaderUserId, config.meanDecisionIntervalMs, startTime);
    this.choices = new Prng(seed, `copy-trading/leader-choices/${config.leaderUserId}`);
  }

  get leaderUserId(): string {
    return this.config.leaderUserId;
  }

  get nextDecisionTime(): number {
    return this.schedule.next;
  }

  positions(): readonly LeaderPosition[] {
    return this.open;
  }

  /** Takes the decision due at `nextDecisionTime` at the market's current prices; undefined when it changed nothing. */
  decide(market: PriceSource, newId: () => string): LeaderTrade | undefined {
    const time = this.schedule.next;
    this.schedule.advance();
    const openable = this.openable(market);
    const count = this.open.length;
    const wantsOpen = count === 0 || (count < MAX_OPEN_POSITIONS && openable.length > 0 && this.choices.uniform() < 0.5);
    if (wantsOpen) return this.openOne(market, openable, time, newId);
    return this.closeOne(market, time);
  }

  figures(market: PriceSource): LeaderFigures {
    let unrealised = dec(0);
    let used = dec(0);
    for (const p of this.open) {
      const price = market.markPrice(p.symbol) ?? market.lastPrice(p.symbol);
      if (price !== undefined) unrealised = unrealised.add(pnlAt(p.isLong, p.quantity, p.openPrice, dec(price)));
      used = used.add(p.margin);
    }
    const marginBalance = dec(this.config.marginBalance).add(this.realised).add(unrealised);
    const available = marginBalance.sub(used);
    const zero = dec(0);
    return {
      marginBalance,
      availableMargin: available.isNegative() ? zero : available,
      unrealisedPnl: unrealised,
      realisedProfit: this.realised,
      holdingProfitSharing: zero,
      settledProfitSharing: zero,
      netProfit: this.realised,
    };
  }

  /** (symbol, side) pairs without a position, on symbols that are listed and have traded. */
  private openable(market: PriceSource): { readonly symbol: string; readonly isLong: boolean }[] {
    const out: { symbol: string; isLong: boolean }[] = [];
    for (const symbol of this.config.symbols) {
      if (market.instrument(symbol) === undefined || market.lastPrice(symbol) === undefined) continue;
      for (const isLong of [true, false]) if (!this.open.some((p) => p.symbol === symbol && p.isLong === isLong)) out.push({ symbol, isLong });
    }
    return out;
  }

  private openOne(market: PriceSource, openable: readonly { readonly symbol: string; readonly isLong: boolean }[], time: number, newId: () => string): LeaderTrade | undefined {
    const pick = openable[this.choices.int(0, openable.length - 1)];
    const shareBp = this.choices.int(MIN_SHARE_BP, MAX_SHARE_BP);
    if (pick === undefined) return undefined;
    const instrument = market.instrument(pick.symbol);
    const last = market.lastPrice(pick.symbol);
    if (instrument === undefined || last === undefined) return undefined;
    const before = this.figures(market);
    const price = dec(last);
    const leverage = dec(this.config.leverage);
    const quantity = quantityForMargin(instrument, before.availableMargin.mul(shareBp).div(10_000), price, leverage);
    if (quantity.isZero()) return undefined;
    const position: LeaderPosition = {
      id: newId(),
      leaderUserId: this.config.leaderUserId,
      symbol: pick.symbol,
      isLong: pick.isLong,
      marginType: this.config.marginType,
      leverage,
      quantity,
      openPrice: price,
      margin: initialMargin(quantity, price, leverage),
      openTime: time,
    };
    this.open.push(position);
    return { kind: 'open', time, position, marginBalanceBefore: before.marginBalance };
  }

  private closeOne(market: PriceSource, time: number): LeaderTrade | undefined {
    const index = this.choices.int(0, this.open.length - 1);
    const position = this.open[index];
    const last = position === undefined ? undefined : market.lastPrice(position.symbol);
    if (position === undefined || last === undefined) return undefined;
    const closePrice = dec(last);
    const realizedProfit = pnlAt(position.isLong, position.quantity, position.openPrice, closePrice);
    this.open.splice(index, 1);
    this.realised = this.realised.add(realizedProfit);
    return { kind: 'close', time, position, closePrice, realizedProfit };
  }
}
