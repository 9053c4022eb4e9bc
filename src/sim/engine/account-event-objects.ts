import type { Decimal } from '../../core/decimal.js';
import type { AccountFigures } from './account-math.js';
import type { OrderMoment, PositionMoment } from './account-moments.js';
import type { BalanceChanged, Category, OrderUpdated, OrderView, PositionChanged, PositionView } from './types.js';
import { money, orderViewOf, positionViewOf } from './views.js';

/**
 * The engine's account events with their wire text made on first read: the user stream's socket reads
 * it, the in-process port (a backtest, the daemon's sim mode) reads the moment's decimals instead and
 * never formats it. The moment is taken when the event is emitted, so a view made later is the same
 * view. The views are accessors of the class (a `{ ...event }` spread has none of them).
 */
export class OrderEvent implements OrderUpdated {
  readonly type = 'order';
  // Plain fields, not accessors: every listener reads these first, on events of every kind.
  readonly userId: string;
  readonly category: Category;
  #view: OrderView | undefined;
  #fill: OrderUpdated['fill'];

  constructor(
    readonly time: number,
    readonly moment: OrderMoment,
    /** The fill that caused this update, if any: quantity and price text, its fee. */
    private readonly filled?: { readonly qty: string; readonly price: string; readonly fee: Decimal; readonly isMaker: boolean },
  ) {
    this.userId = moment.record.userId;
    this.category = moment.record.category;
  }

  get order(): OrderView {
    return (this.#view ??= orderViewOf(this.moment));
  }

  get fill(): OrderUpdated['fill'] {
    const filled = this.filled;
    if (filled === undefined) return undefined;
    return (this.#fill ??= { qty: filled.qty, price: filled.price, commission: money(filled.fee), isMaker: filled.isMaker });
  }
}

export class PositionEvent implements PositionChanged {
  readonly type = 'position';
  readonly userId: string;
  readonly category: Category;
  #view: PositionView | undefined;

  constructor(
    readonly time: number,
    readonly moment: PositionMoment,
  ) {
    this.userId = moment.account.userId;
    this.category = moment.account.category;
  }

  get position(): PositionView {
    return (this.#view ??= positionViewOf(this.moment));
  }
}

/**
 * Free and locked of the stream's B entry, formatted on first read from the account's figures of the
 * moment (`accountFiguresLater`: the wallet and the position and order margins, summed when first read;
 * an in-process reader never reads them).
 */
export class BalanceEvent implements BalanceChanged {
  readonly type = 'balance';
  readonly coin: Category;
  #free: string | undefined;
  #locked: string | undefined;
  #lockedMargin: Decimal | undefined;

  constructor(
    readonly time: number,
    readonly userId: string,
    readonly category: Category,
    /** The account's figures of the event's moment (made when first read): an in-process reader takes its balance from these. */
    readonly figures: () => AccountFigures,
  ) {
    this.coin = category;
  }

  get free(): string {
    return (this.#free ??= money(this.figures().wallet.sub(this.lockedMargin())));
  }

  get locked(): string {
    return (this.#locked ??= money(this.lockedMargin()));
  }

  /** Position margin + order margin. */
  private lockedMargin(): Decimal {
    if (this.#lockedMargin === undefined) {
      const f = this.figures();
      this.#lockedMargin = f.positionMargin.add(f.orderMargin);
    }
    return this.#lockedMargin;
  }
}
