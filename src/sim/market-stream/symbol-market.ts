import { BookSide } from './book-side.js';
import type { SymbolDynamics } from './dynamics.js';
import type { MarketChannel, MarketEvent, PriceLevel } from './events.js';
import { FUNDING_INTERVAL_MS, FUNDING_RATE_STEP, fundingRateFromPremium, nextFundingBoundary } from './funding.js';
import type { SimInstrument } from './instruments.js';
import { instrumentGrids } from './instruments.js';
import { Prng } from './prng.js';
import { StepGrid } from './ticks.js';

// Globals read once: hot loops also run inside jest's vm context, where each global lookup is slow.
const { exp, log, sqrt, floor, round, min, max, ceil } = Math;
const stringOf = String;
const NEVER = Number.POSITIVE_INFINITY;

/** Timer kinds of a symbol, in tie-break order at equal times. */
const REGIME = 0;
const PRICE = 1;
const DEPTH = 2;
const TRADE = 3;
const MARK = 4;
const INDEX = 5;
const FUNDING = 6;
export const TIMER_KIND_COUNT = 7;

const MS_PER_YEAR = 365 * 24 * 3_600_000;
const FUNDING_RATE_GRID = new StepGrid(FUNDING_RATE_STEP);
const FUNDING_RATE_SCALE = 1 / FUNDING_RATE_GRID.approx;

export interface SymbolMarketTiming {
  readonly startTime: number;
  readonly priceStepMs: number;
  readonly depthIntervalMs: number;
  readonly depthLevels: number;
  readonly markIntervalMs: number;
  readonly indexIntervalMs: number;
  readonly fundingUpdateMs: number;
}

/**
 * One symbol's synthetic market: a log-price random walk whose volatility switches between regimes, a
 * two-sided book around it that taker orders consume, a smoothed mark, an index off the mid by a
 * mean-reverting basis, and funding from the mark/index premium. Prices live as integer ticks and
 * sizes as integer lots; text is made only for events that are emitted.
 *
 * The generator drives it through `run(kind, now, out)`: one timer acts at `now`, appends what it
 * emits to `out` and returns its next time. Timers run whichever channels are emitted, so choosing
 * channels never changes the market itself. Price, trades and book draw from separate PRNG streams.
 */
export class SymbolMarket {
  readonly symbol: string;
  private readonly priceGrid: StepGrid;
  private readonly quantityGrid: StepGrid;
  private readonly priceRng: Prng;
  private readonly tradeRng: Prng;
  private readonly bookRng: Prng;
  private readonly emitDepth: boolean;
  private readonly emitTrade: boolean;
  private readonly emitMark: boolean;
  private readonly emitIndex: boolean;
  private readonly emitFunding: boolean;

  private regimeIndex = 0;
  /** Standard deviation of one price step's log return, per regime. */
  private readonly stepDeviation: readonly number[];
  private readonly maxTakerRate: number;
  private readonly markAlpha: number;
  private readonly basisDecay: number;
  private readonly basisInnovation: number;

  private logMid: number;
  private lastStepUp = true;
  private spreadTicks = 1;
  /** Reference touch from the mid and spread; each side's live best is this plus its consumed offset. */
  private refBidTicks = 0;
  private refAskTicks = 0;
  private readonly bids: BookSide;
  private readonly asks: BookSide;
  private tradeCount = 0;

  private mark: number;
  private basis: number;
  private premiumSum = 0;
  private premiumCount = 0;
  private lastAveragePremium = 0;
  private nextFundingTime: number;
  private publishedRateUnits: number | undefined;

  constructor(
    instrument: SimInstrument,
    private readonly dynamics: SymbolDynamics,
    private readonly timing: SymbolMarketTiming,
    seed: number,
    channels: ReadonlySet<MarketChannel>,
  ) {
    if (dynamics.regimes.length === 0) throw new RangeError(`${instrument.symbol}: at least one volatility regime is needed`);
    this.symbol = instrument.symbol;
    ({ price: this.priceGrid, quantity: this.quantityGrid } = instrumentGrids(instrument));
    this.priceRng = new Prng(seed, `${instrument.symbol}/price`);
    this.tradeRng = new Prng(seed, `${instrument.symbol}/trade`);
    this.bookRng = new Prng(seed, `${instrument.symbol}/book`);
    this.emitDepth = channels.has('depth');
    this.emitTrade = channels.has('trade');
    this.emitMark = channels.has('mark');
    this.emitIndex = channels.has('index');
    this.emitFunding = channels.has('funding');

    this.stepDeviation = dynamics.regimes.map((r) => r.annualVolatility * sqrt(timing.priceStepMs / MS_PER_YEAR));
    this.maxTakerRate = max(...dynamics.regimes.map((r) => r.takerOrdersPerSecond));
    this.markAlpha = 1 - exp(-timing.markIntervalMs / dynamics.markSmoothingMs);
    this.basisDecay = exp(-timing.indexIntervalMs / dynamics.basisReversionMs);
    this.basisInnovation = dynamics.basisDeviation * sqrt(1 - this.basisDecay * this.basisDecay);

    this.logMid = log(Number(instrument.initialPrice));
    this.mark = exp(this.logMid);
    this.basis = dynamics.basisDeviation * this.priceRng.normal();
    this.nextFundingTime = nextFundingBoundary(timing.startTime);
    this.bids = new BookSide(timing.depthLevels, dynamics, this.bookRng);
    this.asks = new BookSide(timing.depthLevels, dynamics, this.bookRng);
    this.drawSpread();
    this.placeTouch();
  }

  regimeName(): string {
    return this.regime().name;
  }

  /** First time of each timer kind, indexed by kind. */
  firstTimes(): number[] {
    const t = this.timing;
    return [
      t.startTime + this.priceRng.exponential(this.regime().meanDurationMs),
      alignedAtOrAfter(t.startTime, t.priceStepMs),
      alignedAtOrAfter(t.startTime, t.depthIntervalMs),
      this.maxTakerRate > 0 ? t.startTime + this.tradeRng.exponential(1000 / this.maxTakerRate) : NEVER,
      alignedAtOrAfter(t.startTime, t.markIntervalMs),
      alignedAtOrAfter(t.startTime, t.indexIntervalMs),
      t.startTime,
    ];
  }

  run(kind: number, now: number, out: MarketEvent[]): number {
    switch (kind) {
      case REGIME:
        return this.switchRegime(now);
      case PRICE:
        return this.stepPrice(now);
      case DEPTH:
        return this.refreshBook(now, out);
      case TRADE:
        return this.maybeTrade(now, out);
      case MARK:
        return this.updateMark(now, out);
      case INDEX:
        return this.updateIndex(now, out);
      case FUNDING:
        return this.updateFunding(now, out);
      default:
        throw new RangeError(`unknown timer kind ${kind}`);
    }
  }

  private regime(): SymbolDynamics['regimes'][number] {
    const regime = this.dynamics.regimes[this.regimeIndex];
    if (regime === undefined) throw new RangeError('regime index out of range');
    return regime;
  }

  private switchRegime(now: number): number {
    const count = this.dynamics.regimes.length;
    if (count < 2) return NEVER;
    const other = this.priceRng.int(0, count - 2);
    this.regimeIndex = other >= this.regimeIndex ? other + 1 : other;
    return now + this.priceRng.exponential(this.regime().meanDurationMs);
  }

  private stepPrice(now: number): number {
    const deviation = this.stepDeviation[this.regimeIndex] ?? 0;
    const step = deviation * this.priceRng.normal() - (deviation * deviation) / 2;
    this.logMid += step;
    this.lastStepUp = step >= 0;
    this.placeTouch();
    return now + this.timing.priceStepMs;
  }

  private refreshBook(now: number, out: MarketEvent[]): number {
    this.drawSpread();
    this.bids.refresh(this.bookRng);
    this.asks.refresh(this.bookRng);
    this.placeTouch();
    if (this.emitDepth) out.push({ type: 'depth', ts: floor(now), symbol: this.symbol, bids: this.levels(this.bids, -1), asks: this.levels(this.asks, 1) });
    return now + this.timing.depthIntervalMs;
  }

  /** Poisson arrivals by thinning: candidates at the fastest regime's rate, kept at the current one's. */
  private maybeTrade(now: number, out: MarketEvent[]): number {
    const rng = this.tradeRng;
    if (rng.uniform() * this.maxTakerRate < this.regime().takerOrdersPerSecond) {
      const takerBuys = rng.uniform() < (this.lastStepUp ? 0.55 : 0.45);
      const lots = max(1, round(rng.pareto(this.dynamics.takerSizeMinLots, this.dynamics.takerSizeTailIndex)));
      const ts = floor(now);
      const side = takerBuys ? this.asks : this.bids;
      side.take(lots, (offset, taken) => {
        this.tradeCount++;
        if (!this.emitTrade) return;
        const priceTicks = takerBuys ? this.refAskTicks + offset : this.refBidTicks - offset;
        out.push({
          type: 'trade',
          ts,
          symbol: this.symbol,
          id: stringOf(this.tradeCount),
          price: this.priceGrid.toText(priceTicks),
          qty: this.quantityGrid.toText(taken),
          buyerIsMaker: !takerBuys,
        });
      });
    }
    return now + rng.exponential(1000 / this.maxTakerRate);
  }

  private updateMark(now: number, out: MarketEvent[]): number {
    this.mark += this.markAlpha * (exp(this.logMid) - this.mark);
    if (this.emitMark) out.push({ type: 'mark', ts: now, symbol: this.symbol, price: this.priceGrid.toText(this.priceGrid.nearestUnits(this.mark)) });
    return now + this.timing.markIntervalMs;
  }

  private updateIndex(now: number, out: MarketEvent[]): number {
    this.basis = this.basisDecay * this.basis + this.basisInnovation * this.priceRng.normal();
    const index = exp(this.logMid - this.basis);
    this.premiumSum += (this.mark - index) / index;
    this.premiumCount++;
    if (this.emitIndex) out.push({ type: 'index', ts: now, symbol: this.symbol, price: this.priceGrid.toText(this.priceGrid.nearestUnits(index)) });
    return now + this.timing.indexIntervalMs;
  }

  /** Publishes the rate at start, whenever it changes, and at every settlement boundary. */
  private updateFunding(now: number, out: MarketEvent[]): number {
    const settling = now === this.nextFundingTime;
    if (settling) {
      this.lastAveragePremium = this.averagePremium();
      this.premiumSum = 0;
      this.premiumCount = 0;
      this.nextFundingTime += FUNDING_INTERVAL_MS;
    }
    const rateUnits = round(fundingRateFromPremium(this.averagePremium()) * FUNDING_RATE_SCALE);
    if (settling || rateUnits !== this.publishedRateUnits) {
      this.publishedRateUnits = rateUnits;
      if (this.emitFunding) {
        out.push({ type: 'funding', ts: now, symbol: this.symbol, rate: FUNDING_RATE_GRID.toText(rateUnits), nextFundingTime: this.nextFundingTime, period: '8H' });
      }
    }
    return min(now - (now % this.timing.fundingUpdateMs) + this.timing.fundingUpdateMs, this.nextFundingTime);
  }

  private averagePremium(): number {
    return this.premiumCount === 0 ? this.lastAveragePremium : this.premiumSum / this.premiumCount;
  }

  private drawSpread(): void {
    const r = this.regime();
    const u = this.bookRng.uniform();
    this.spreadTicks = r.minSpreadTicks + floor(u * u * (r.maxSpreadTicks - r.minSpreadTicks + 1));
  }

  private placeTouch(): void {
    const midTicks = exp(this.logMid) / this.priceGrid.approx;
    this.refBidTicks = round(midTicks - this.spreadTicks / 2);
    this.refAskTicks = this.refBidTicks + this.spreadTicks;
  }

  private levels(side: BookSide, direction: 1 | -1): PriceLevel[] {
    const ref = direction > 0 ? this.refAskTicks : this.refBidTicks;
    const levels: PriceLevel[] = new Array<PriceLevel>(side.length);
    for (let i = 0; i < side.length; i++) {
      levels[i] = [this.priceGrid.toText(ref + direction * side.offsetAt(i)), this.quantityGrid.toText(side.lotsAt(i))];
    }
    return levels;
  }
}

function alignedAtOrAfter(ts: number, interval: number): number {
  return ceil(ts / interval) * interval;
}
