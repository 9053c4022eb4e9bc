import type { Decimal } from '../../core/decimal.js';
import { dec } from '../../core/decimal.js';
import { DecimalSum } from '../../core/decimal-sum.js';
import { minusExact } from '../../core/exact-decimal.js';
import type { EngineState } from './engine-state.js';
import type { FuturesAccount } from './ledger.js';
import type { PositionMath, PositionRecord } from './position-record.js';
import { PositionSize } from './position-record.js';
import { decimalOfScaled, scaledInteger } from '../../core/scaled-integer.js';
import type { SymbolBook } from './symbol-book.js';
import { liquidationPrice, positionMath } from './position-record.js';

const ZERO = dec(0);

/** An account's margin picture at current mark prices. */
export interface AccountFigures {
  /** The wallet balance they were computed with. */
  readonly wallet: Decimal;
  readonly crossUnrealizedPnl: Decimal;
  readonly isolatedMargin: Decimal;
  readonly positionMargin: Decimal;
  readonly orderMargin: Decimal;
  /** wallet − isolated margins + cross unrealized PnL: what backs the cross positions. */
  readonly crossEquity: Decimal;
  readonly crossMaintMargin: Decimal;
  /** wallet + cross unrealized PnL − position margin − order margin (API-NOTES §4.1: includes unrealized PnL). */
  readonly available: Decimal;
  /** The sign of `available − x`, without making `available` where a double estimate tells it. */
  compareAvailable(x: Decimal): number;
}

/**
 * Each position's last figures (`PositionRecord.mathMemo`): one order's admission, its balance and
 * position events and the liquidation check each ask for the same position at the same mark, and the
 * figures are a pure function of these inputs (decimals are immutable: the same objects are the same
 * values). A new mark with the same lots keeps the size's figures.
 */

/** Position figures at the current mark (or last, or entry when the market has not printed yet). */
export function mathOf(state: EngineState, position: PositionRecord): PositionMath {
  const book = state.books.get(position.symbol);
  if (book === undefined) throw new RangeError(`no book for ${position.symbol}`);
  const mark = state.markDecimal(book) ?? position.avgPrice;
  const memo = position.mathMemo;
  if (memo !== undefined && memo.book === book && memo.lots === position.lots && memo.avgPrice === position.avgPrice && memo.mark === mark) return memo.math;
  const size = memo !== undefined && memo.book === book && memo.lots === position.lots ? memo.math.size : sizeOf(book, position.lots);
  const markUnits = scaledInteger(mark, book.price.decimals);
  const math = positionMath(position, size, mark, markUnits === undefined ? undefined : { units: markUnits, scale: book.price.decimals });
  if (memo === undefined) position.mathMemo = { book, lots: position.lots, avgPrice: position.avgPrice, mark, math };
  else {
    memo.book = book;
    memo.lots = position.lots;
    memo.avgPrice = position.avgPrice;
    memo.mark = mark;
    memo.math = math;
  }
  return math;
}

/** The size figures of `lots` on `book`: coins (from the lots' and the multiplier's digits when their product fits) and the tier's maintenance rate. */
function sizeOf(book: SymbolBook, lots: number): PositionSize {
  const multiplier = book.multiplier;
  const qty = book.qty.scaledOf(lots);
  const coinUnits = multiplier === undefined || qty === undefined ? undefined : qty * multiplier.units;
  const coinsDigits = coinUnits !== undefined && Number.isSafeInteger(coinUnits) && multiplier !== undefined ? { units: coinUnits, scale: book.qty.decimals + multiplier.decimals } : undefined;
  const coins = coinsDigits === undefined ? book.qtyDecimals.of(lots).mul(book.multiplierDecimal) : decimalOfScaled(coinsDigits.units, coinsDigits.scale);
  const tier = book.tiers.ofLots(lots);
  return new PositionSize(coins, coinsDigits, tier.maintRate, tier.maintRateDigits);
}

/** One open position as the account's figures read it. */
interface PositionInputs {
  readonly record: PositionRecord;
  readonly margin: Decimal;
  readonly marginType: PositionRecord['marginType'];
  /** `mathOf` (remembered by its own inputs); undefined when isolated. */
  readonly math: PositionMath | undefined;
}

/**
 * Everything an account's figures are computed from, as identities, in the account's order: the
 * wallet, each open position, each open order's locked margin. Decimals are immutable, so the same
 * objects in the same order give the same figures, and the inputs keep what the figures were at their
 * moment however the account moves on.
 */
interface FigureInputs {
  readonly wallet: Decimal;
  readonly positions: readonly PositionInputs[];
  readonly orderMargins: readonly Decimal[];
}

/** What an account's figures were last computed from, and the figures. */
const figureMemos = new WeakMap<FuturesAccount, { readonly inputs: FigureInputs; readonly figures: AccountFigures }>();

function inputsOf(state: EngineState, account: FuturesAccount): FigureInputs {
  const positions: PositionInputs[] = [];
  for (const p of account.positions.values()) {
    if (p.lots === 0) continue;
    positions.push({ record: p, margin: p.margin, marginType: p.marginType, math: p.marginType === 'ISOLATED' ? undefined : mathOf(state, p) });
  }
  const orderMargins: Decimal[] = [];
  for (const o of account.openOrders) orderMargins.push(o.marginLocked);
  return { wallet: account.wallet, positions, orderMargins };
}

/** Whether `inputsOf(state, account)` would equal `inputs`, read in the same order without building them (most asks find them unchanged). */
function sameInputs(state: EngineState, account: FuturesAccount, inputs: FigureInputs): boolean {
  if (inputs.wallet !== account.wallet) return false;
  let i = 0;
  for (const p of account.positions.values()) {
    if (p.lots === 0) continue;
    const known = inputs.positions[i++];
    if (known === undefined || known.record !== p || known.margin !== p.margin || known.marginType !== p.marginType) return false;
    if (known.math !== (p.marginType === 'ISOLATED' ? undefined : mathOf(state, p))) return false;
  }
  if (i !== inputs.positions.length) return false;
  let j = 0;
  for (const o of account.openOrders) if (inputs.orderMargins[j++] !== o.marginLocked) return false;
  return j === inputs.orderMargins.length;
}

/**
 * An account's margin picture at current mark prices. One order asks for it several times (its
 * admission, its balance event, a position event, the liquidation check) with nothing changed between:
 * the last answer is kept with its inputs and given again while they are the same.
 */
export function accountFigures(state: EngineState, account: FuturesAccount): AccountFigures {
  const memo = figureMemos.get(account);
  if (memo !== undefined && sameInputs(state, account, memo.inputs)) return memo.figures;
  const inputs = inputsOf(state, account);
  const figures = figuresOf(inputs);
  figureMemos.set(account, { inputs, figures });
  return figures;
}

/** Each account's last capture of `accountFiguresLater`. */
const captures = new WeakMap<FuturesAccount, { readonly inputs: FigureInputs; readonly figures: () => AccountFigures }>();

/**
 * The account's figures of this moment, computed when first asked: the user stream's balance event (one
 * per order placed, filled and ended) reaches readers in-process that mostly never read it. The inputs
 * are taken now (references), the decimals made on the first call.
 */
export function accountFiguresLater(state: EngineState, account: FuturesAccount): () => AccountFigures {
  const memo = figureMemos.get(account);
  if (memo !== undefined && sameInputs(state, account, memo.inputs)) {
    const known = memo.figures;
    return () => known;
  }
  // The engine's balance event and the port's balance of it ask at the same moment: one capture for both.
  const last = captures.get(account);
  if (last !== undefined && sameInputs(state, account, last.inputs)) return last.figures;
  const inputs = inputsOf(state, account);
  let figures: AccountFigures | undefined;
  const later = (): AccountFigures => (figures ??= figuresOf(inputs));
  captures.set(account, { inputs, figures: later });
  return later;
}

/**
 * The figures of `inputsOf`'s inputs: each sum in the account's order, the combined figures from those
 * sums (the same steps, so the same values, as decimal.js's adds from zero), each made when first read.
 */
class SummedFigures implements AccountFigures {
  readonly wallet: Decimal;
  private readonly crossUnrealized = new DecimalSum();
  private readonly isolated = new DecimalSum();
  private readonly positions = new DecimalSum();
  private readonly crossMaint = new DecimalSum();
  private readonly orders = new DecimalSum();
  private readonly equity: DecimalSum;
  private readonly free: DecimalSum;

  constructor(inputs: FigureInputs) {
    this.wallet = inputs.wallet;
    for (const p of inputs.positions) {
      this.positions.add(p.margin);
      if (p.math === undefined) {
        this.isolated.add(p.margin);
        continue;
      }
      this.crossUnrealized.add(p.math.unrealizedPnl);
      this.crossMaint.add(p.math.maintMargin);
    }
    for (const margin of inputs.orderMargins) this.orders.add(margin);
    this.equity = new DecimalSum().add(this.wallet).sub(this.isolated).add(this.crossUnrealized);
    this.free = new DecimalSum().add(this.wallet).add(this.crossUnrealized).sub(this.positions).sub(this.orders);
  }

  get crossUnrealizedPnl(): Decimal {
    return this.crossUnrealized.decimal;
  }

  get isolatedMargin(): Decimal {
    return this.isolated.decimal;
  }

  get positionMargin(): Decimal {
    return this.positions.decimal;
  }

  get orderMargin(): Decimal {
    return this.orders.decimal;
  }

  get crossEquity(): Decimal {
    return this.equity.decimal;
  }

  get crossMaintMargin(): Decimal {
    return this.crossMaint.decimal;
  }

  get available(): Decimal {
    return this.free.decimal;
  }

  compareAvailable(x: Decimal): number {
    return this.free.compareTo(x);
  }
}

function figuresOf(inputs: FigureInputs): AccountFigures {
  return new SummedFigures(inputs);
}

/** Liquidation price of one position, with the figures it was computed from. */
export function liquidationOf(state: EngineState, account: FuturesAccount, position: PositionRecord, figures: AccountFigures = accountFigures(state, account)): { readonly liquidationPrice: Decimal; readonly math: PositionMath } {
  const math = mathOf(state, position);
  if (position.lots === 0) return { liquidationPrice: ZERO, math };
  if (position.marginType === 'ISOLATED') return { liquidationPrice: liquidationPrice(position, math.size, position.margin), math };
  // Everything else backing the cross book stays as it is; this position's own PnL moves with the price.
  const cushion = minusExact(minusExact(figures.crossEquity, math.unrealizedPnl), minusExact(figures.crossMaintMargin, math.maintMargin));
  return { liquidationPrice: liquidationPrice(position, math.size, cushion), math };
}

/**
 * Risk rate in percent (maintenance margin over margin balance) of a position of `lots` with `margin`
 * (isolated) at `math`, in an account of `figures`: made only for a view that shows it.
 */
export function riskRateOf(lots: number, marginType: PositionRecord['marginType'], margin: Decimal, math: PositionMath, figures: AccountFigures): Decimal {
  if (lots === 0) return ZERO;
  if (marginType === 'ISOLATED') {
    const balance = margin.add(math.unrealizedPnl);
    return balance.lte(0) ? dec(100) : math.maintMargin.div(balance).mul(100);
  }
  return figures.crossEquity.lte(0) ? dec(100) : figures.crossMaintMargin.div(figures.crossEquity).mul(100);
}
