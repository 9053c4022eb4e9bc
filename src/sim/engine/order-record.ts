import type { Decimal } from '../../core/decimal.js';
import { dec } from '../../core/decimal.js';
import type { AttachedStop, Category, MarginType, OrderStatus, PositionSide, PriceType, Side, TimeInForce } from './types.js';

/** One zero for every new order's sums (decimals are immutable). */
const ZERO = dec(0);

/**
 * The engine's mutable record of a regular order. Price and quantities are integer ticks and lots of the
 * instrument's grids (exact); money is Decimal. Views are rendered from it on demand.
 */
export class OrderRecord {
  executedLots = 0;
  cumQuote: Decimal = ZERO;
  commission: Decimal = ZERO;
  realizedPnl: Decimal = ZERO;
  /** Margin still reserved for the unfilled part (opening orders only). */
  marginLocked: Decimal = ZERO;
  status: OrderStatus;
  updateTime: number;
  /** Visible quantity ahead of this order at its price level, in lots (resting orders only). */
  queueAheadLots = 0;
  /** Position in the resting book: lower rests longer (time priority). */
  restSeq = 0;
  resting = false;

  constructor(
    readonly orderId: string,
    public clientOrderId: string,
    readonly userId: string,
    readonly accountId: string,
    readonly category: Category,
    readonly symbol: string,
    readonly side: Side,
    readonly positionSide: PositionSide,
    readonly type: 'LIMIT' | 'MARKET',
    public priceTicks: number,
    public priceType: PriceType,
    public origLots: number,
    readonly timeInForce: TimeInForce,
    readonly leverage: number,
    readonly marginType: MarginType,
    readonly time: number,
    readonly attached: { readonly takeProfit?: AttachedStop; readonly stopLoss?: AttachedStop },
    readonly sourceAlgoOrderId: string | undefined,
  ) {
    this.status = 'NEW';
    this.updateTime = time;
  }

  get remainingLots(): number {
    return this.origLots - this.executedLots;
  }

  /** SELL on LONG or BUY on SHORT: the order reduces a position. */
  get isClose(): boolean {
    return (this.side === 'SELL') === (this.positionSide === 'LONG');
  }

  get isBuy(): boolean {
    return this.side === 'BUY';
  }

  get isOpen(): boolean {
    return this.status === 'NEW' || this.status === 'PARTIALLY_FILLED' || this.status === 'PENDING_NEW';
  }
}
