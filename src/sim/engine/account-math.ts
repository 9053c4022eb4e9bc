import type { Decimal } from '../../core/decimal.js';
import { dec } from '../../core/decimal.js';
import { decimalOfText } from '../../core/decimal-cache.js';
import type { EngineState } from './engine-state.js';
import type { FuturesAccount } from './ledger.js';
import type { PositionMath, PositionRecord } from './position-record.js';
import type { SymbolBook } from './symbol-book.js';
import { liquidationPrice, positionMath } from './position-record.js';

const ZERO = dec(0);

/** An account's margin picture at current mark prices. */
export interface AccountFigures {
  readonly crossUnrealizedPnl: Decimal;
  readonly isolatedMargin: Decimal;
  readonly positionMargin: Decimal;
  readonly orderMargin: Decimal;
  /** wallet − isolated margins + cross unrealized PnL: what backs the cross positions. */
  readonly crossEquity: Decimal;
  readonly crossMaintMargin: Decimal;
  /** wallet + cross unrealized PnL − position margin − order margin (API-NOTES §4.1: includes unrealized PnL). */
  readonly available: Decimal;
}

/** The inputs a position's figures were last computed from, and the figures. */
interface MathMemo {
  readonly book: SymbolBook;
  readonly lots: number;
  readonly avgPrice: Decimal;
  readonly mark: Decimal;
  readonly math: PositionMath;
}

/**
 * Each position's last figures: one order's admission, its balance and position events and the
 * liquidation check each ask for the same position at the same mark, and the figures are a pure
 * function of these inputs (decimals are immutable: the same objects are the same values).
 */
const memos = new WeakMap<PositionRecord, MathMemo>();

/** Position figures at the current mark (or last, or entry when the market has not printed yet). */
export function mathOf(state: EngineState, position: PositionRecord): PositionMath {
  const book = state.books.get(position.symbol);
  if (book === undefined) throw new RangeError(`no book for ${position.symbol}`);
  const mark = state.markDecimal(book) ?? position.avgPrice;
  const memo = memos.get(position);
  if (memo !== undefined && memo.book === book && memo.lots === position.lots && memo.avgPrice === position.avgPrice && memo.mark === mark) return memo.math;
  const math = positionMath(position, decimalOfText(book.qty.toText(position.lots)), decimalOfText(book.instrument.contractMultiplier), mark, book.instrument.riskLimits);
  memos.set(position, { book, lots: position.lots, avgPrice: position.avgPrice, mark, math });
  return math;
}

/** What an account's figures were last computed from (see `inputsOf`), and the figures. */
const figureMemos = new WeakMap<FuturesAccount, { readonly inputs: readonly unknown[]; readonly figures: AccountFigures }>();

/**
 * Everything `accountFigures` reads, as identities: the wallet, each open position with its margin,
 * margin type and figures (`mathOf`, itself remembered by its inputs), each open order's locked margin.
 * Decimals are immutable, so the same objects in the same order give the same figures.
 */
function inputsOf(state: EngineState, account: FuturesAccount): unknown[] {
  const inputs: unknown[] = [account.wallet];
  for (const p of account.positions.values()) {
    if (p.lots === 0) continue;
    inputs.push(p, p.margin, p.marginType, p.marginType === 'ISOLATED' ? undefined : mathOf(state, p));
  }
  for (const o of account.openOrders) inputs.push(o.marginLocked);
  return inputs;
}

/** Whether `inputsOf(state, account)` would equal `inputs`, read in the same order without building the list (most asks find them unchanged). */
function sameInputs(state: EngineState, account: FuturesAccount, inputs: readonly unknown[]): boolean {
  let i = 0;
  if (inputs[i++] !== account.wallet) return false;
  for (const p of account.positions.values()) {
    if (p.lots === 0) continue;
    if (inputs[i++] !== p || inputs[i++] !== p.margin || inputs[i++] !== p.marginType) return false;
    if (inputs[i++] !== (p.marginType === 'ISOLATED' ? undefined : mathOf(state, p))) return false;
  }
  for (const o of account.openOrders) if (inputs[i++] !== o.marginLocked) return false;
  return i === inputs.length;
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
  const figures = computeFigures(state, account);
  figureMemos.set(account, { inputs, figures });
  return figures;
}

function computeFigures(state: EngineState, account: FuturesAccount): AccountFigures {
  let crossUnrealizedPnl = ZERO;
  let isolatedMargin = ZERO;
  let positionMargin = ZERO;
  let crossMaintMargin = ZERO;
  for (const p of account.positions.values()) {
    if (p.lots === 0) continue;
    positionMargin = positionMargin.add(p.margin);
    if (p.marginType === 'ISOLATED') {
      isolatedMargin = isolatedMargin.add(p.margin);
      continue;
    }
    const m = mathOf(state, p);
    crossUnrealizedPnl = crossUnrealizedPnl.add(m.unrealizedPnl);
    crossMaintMargin = crossMaintMargin.add(m.maintMargin);
  }
  const orderMargin = account.orderMargin();
  return {
    crossUnrealizedPnl,
    isolatedMargin,
    positionMargin,
    orderMargin,
    crossEquity: account.wallet.sub(isolatedMargin).add(crossUnrealizedPnl),
    crossMaintMargin,
    available: account.wallet.add(crossUnrealizedPnl).sub(positionMargin).sub(orderMargin),
  };
}

/** Risk rate in percent (maintenance margin over margin balance) and liquidation price of one position. */
export function riskOf(state: EngineState, account: FuturesAccount, position: PositionRecord, figures: AccountFigures = accountFigures(state, account)): { readonly riskRate: Decimal; readonly liquidationPrice: Decimal; readonly math: PositionMath } {
  const math = mathOf(state, position);
  if (position.lots === 0) return { riskRate: ZERO, liquidationPrice: ZERO, math };
  if (position.marginType === 'ISOLATED') {
    const balance = position.margin.add(math.unrealizedPnl);
    const riskRate = balance.lte(0) ? dec(100) : math.maintMargin.div(balance).mul(100);
    return { riskRate, liquidationPrice: liquidationPrice(position, math.coins, position.margin, math.maintRate), math };
  }
  const riskRate = figures.crossEquity.lte(0) ? dec(100) : figures.crossMaintMargin.div(figures.crossEquity).mul(100);
  // Everything else backing the cross book stays as it is; this position's own PnL moves with the price.
  const cushion = figures.crossEquity.sub(math.unrealizedPnl).sub(figures.crossMaintMargin.sub(math.maintMargin));
  return { riskRate, liquidationPrice: liquidationPrice(position, math.coins, cushion, math.maintRate), math };
}
