import type { Decimal } from '../../core/decimal.js';
import { dec } from '../../core/decimal.js';
import { assertNever } from '../../core/errors.js';
import type { Position } from '../../model/account.js';
import { positionKey } from '../../model/account.js';
import type { BusEvent } from '../../model/bus-events.js';
import type { CacheView } from '../../model/cache-view.js';
import type { Instrument, PositionSide } from '../../model/instrument.js';
import type { MarkPriceUpdated } from '../../model/market-events.js';

const POSITION_SIDES: readonly PositionSide[] = ['LONG', 'SHORT'];
const ZERO = dec(0);

/**
 * Today's PnL in quote units: realized PnL − fees of today's fills, plus today's funding payments
 * (`account.funding`: received adds, paid subtracts), plus the change of each position's unrealized
 * PnL since the day's start.
 *
 * A position's baseline is its unrealized PnL at the day's start. For a position first seen before the
 * account was synchronised (start-up), the first value seen is its baseline (it existed before);
 * positions first seen afterwards opened today and start from zero.
 *
 * Fills and funding payments come here once: the kernel hands on only those the cache applied (it drops
 * the stream's and the resync's duplicates), so this keeps no memory of their ids of its own.
 */
export class DayPnl {
  private dayStart: number;
  private realized = dec(0);
  private readonly baseline = new Map<string, Decimal>();
  private readonly unrealized = new Map<string, Decimal>();
  private readonly positions = new Map<string, Position>();
  /** Σ (unrealized − baseline) over the positions, kept as they change (every mark price asks for the total). */
  private unrealizedToday = dec(0);
  private synced = false;

  constructor(
    private readonly cache: CacheView,
    now: number,
  ) {
    this.dayStart = now;
    for (const position of cache.positions()) this.observe(position);
  }

  value(): Decimal {
    return this.realized.add(this.unrealizedToday);
  }

  /** Begins a new day at `now`: today's figures restart from zero, open positions from their current PnL. */
  startDay(now: number): void {
    this.dayStart = now;
    this.realized = dec(0);
    for (const [key, pnl] of this.unrealized) this.baseline.set(key, pnl);
    this.unrealizedToday = dec(0);
    this.synced = true;
  }

  /** Answers whether the day's PnL may have changed. */
  onEvent(event: BusEvent): boolean {
    switch (event.type) {
      case 'account.fill': {
        const fill = event.fill;
        if (fill.time < this.dayStart) return false;
        this.realized = this.realized.add(fill.realizedPnl).sub(fill.fee);
        return true;
      }
      case 'account.funding': {
        const funding = event.funding;
        if (funding.time < this.dayStart) return false;
        this.realized = this.realized.add(funding.amount);
        return true;
      }
      case 'account.position':
        return this.observe(event.position);
      case 'market.markPrice':
        return this.markTo(event);
      case 'account.resynced':
        this.synced = true;
        return false;
      case 'account.order':
      case 'account.algo':
      case 'account.balance':
      case 'market.book':
      case 'market.trade':
      case 'market.kline':
      case 'market.bookTicker':
      case 'market.ticker24h':
      case 'market.indexPrice':
      case 'market.fundingRate':
      case 'market.openInterest':
      case 'stream.connected':
      case 'stream.disconnected':
      case 'instruments.loaded':
      case 'instrument.status':
      case 'intent.denied':
      case 'command.submitted':
      case 'command.failed':
      case 'risk.killSwitch':
      case 'risk.protection':
      case 'strategy.started':
      case 'strategy.stopped':
      case 'timer':
      case 'job.finished':
      case 'bus.dropped':
      case 'catalog.changed':
      case 'catalog.synced':
      case 'signal.received':
      case 'ledger.positionLost':
      case 'ledger.claimed':
        return false;
      default:
        return assertNever(event, 'bus event');
    }
  }

  private observe(position: Position): boolean {
    const key = positionKey(position.symbol, position.positionSide);
    const known = this.positions.get(key);
    if (known !== undefined && known.updateTime > position.updateTime) return false;
    this.positions.set(key, position);
    const pnl = position.qty.isZero() ? dec(0) : position.unrealizedPnl;
    if (!this.baseline.has(key)) this.baseline.set(key, this.synced ? dec(0) : pnl);
    this.setUnrealized(key, pnl);
    return true;
  }

  /** A position's unrealized PnL now; its baseline is set. */
  private setUnrealized(key: string, pnl: Decimal): void {
    const before = this.unrealized.get(key) ?? this.baseline.get(key) ?? ZERO;
    this.unrealized.set(key, pnl);
    this.unrealizedToday = this.unrealizedToday.add(pnl.sub(before));
  }

  /** Revalues the symbol's positions at a new mark price (position events may come less often). */
  private markTo(event: MarkPriceUpdated): boolean {
    const symbol = event.symbol;
    // Every mark price of a replay comes here; most find no position (the instrument is looked up only for one).
    if (this.positions.size === 0) return false;
    let instrument: Instrument | undefined;
    let changed = false;
    for (const side of POSITION_SIDES) {
      const key = positionKey(symbol, side);
      const position = this.positions.get(key);
      if (position === undefined || position.qty.isZero()) continue;
      instrument ??= this.cache.instrument(symbol);
      if (instrument === undefined) return false;
      // Read only now: a replay's mark prices become decimals when something reads them.
      const mark = event.price;
      const move = side === 'LONG' ? mark.sub(position.avgPrice) : position.avgPrice.sub(mark);
      this.setUnrealized(key, move.mul(position.qty).mul(instrument.contractMultiplier));
      changed = true;
    }
    return changed;
  }
}
