import type { AttachedStop, Category, FallbackType, MarginType, PlanStatus, PositionSide, Side, StopOrderType, StopType, TimeInForce, TriggerBy } from '../types.js';

/** Trailing parameters of a TP/SL row, as sent (decimal text), plus their grid forms. */
export interface TrailingSetting {
  readonly activePrice: string;
  readonly activeTicks: number;
  readonly fallbackType: FallbackType;
  readonly fallbackQuantity: string;
}

export interface TpSlSetting {
  readonly stopOrderType: StopOrderType;
  stopType: StopType;
  /** Quantity 0 on the wire: the whole position at trigger time. */
  wholePosition: boolean;
  trailing: TrailingSetting | undefined;
}

/** A plan order (STOP/STOP_MARKET) or a TP/SL row, waiting for its trigger or finished. */
export class AlgoRecord {
  status: PlanStatus = 'ORDER_NEW';
  executedOrderId = '0';
  executedPriceTicks = 0;
  executedLots = 0;
  /** Price that fired the row, in ticks. */
  triggeredAtTicks = 0;
  /** A trailing row's activation as of its trigger's last state: kept here once the trigger is gone. */
  activated = false;
  updateTime: number;

  constructor(
    readonly orderId: string,
    public clientOrderId: string,
    readonly userId: string,
    readonly accountId: string,
    readonly category: Category,
    readonly symbol: string,
    readonly side: Side,
    readonly positionSide: PositionSide,
    readonly family: 'PLAN' | 'TPSL',
    /** 0: a market order after the trigger. */
    public priceTicks: number,
    /** 0 with `tpsl.wholePosition`. */
    public lots: number,
    public stopTicks: number,
    public triggerBy: TriggerBy,
    readonly timeInForce: TimeInForce,
    readonly leverage: number,
    readonly marginType: MarginType,
    readonly time: number,
    readonly parentOrderId: string,
    readonly tpsl: TpSlSetting | undefined,
    readonly attached: { readonly takeProfit?: AttachedStop; readonly stopLoss?: AttachedStop },
  ) {
    this.updateTime = time;
  }

  get isClose(): boolean {
    return (this.side === 'SELL') === (this.positionSide === 'LONG');
  }

  get isOpen(): boolean {
    return this.status === 'ORDER_NEW';
  }
}
