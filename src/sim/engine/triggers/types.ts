import type { TriggerBy } from '../types.js';

/** The price a trigger watches: the last trade (CONTRACT_PRICE) or the mark price (MARK_PRICE). */
export type PriceSource = TriggerBy;

/**
 * RISING fires when the watched price reaches the level from below (price >= level); FALLING when it
 * reaches it from above (price <= level). For a trailing trigger it is the firing direction: FALLING is
 * a SELL trailing stop protecting a LONG, RISING a BUY trailing stop protecting a SHORT.
 */
export type TriggerDirection = 'RISING' | 'FALLING';

/** Trailing callback: a ratio in units of 10^-8 (RATE 0.01 is 1_000_000) or a distance in price ticks. */
export type TrailingCallback =
  | { readonly type: 'RATE'; readonly rateE8: number }
  | { readonly type: 'PRICE'; readonly ticks: number };

/** A plan order's or fixed TP/SL's trigger: fires once when the price crosses `stopTicks`. */
export interface FixedTriggerSpec {
  readonly kind: 'FIXED';
  readonly symbol: string;
  readonly source: PriceSource;
  readonly direction: TriggerDirection;
  readonly stopTicks: number;
}

/**
 * A TRAILING_STOP trigger. A FALLING (SELL) one activates at price >= activeTicks, then tracks the
 * highest price and fires at price <= peak − callback; a RISING (BUY) one activates at price <=
 * activeTicks, tracks the lowest price and fires at price >= trough + callback. activeTicks 0: active
 * from registration, starting from the last price the book saw on its source.
 */
export interface TrailingTriggerSpec {
  readonly kind: 'TRAILING';
  readonly symbol: string;
  readonly source: PriceSource;
  readonly direction: TriggerDirection;
  readonly activeTicks: number;
  readonly callback: TrailingCallback;
}

export type TriggerSpec = FixedTriggerSpec | TrailingTriggerSpec;

interface StateBase {
  readonly id: string;
  /** Registration sequence: the order triggers firing on one price are reported in. */
  readonly seq: number;
}

export interface FixedTriggerState extends FixedTriggerSpec, StateBase {
  /** Always 0: activation is a trailing notion (rows show activeStatus 0 for fixed stops). */
  readonly activeStatus: 0;
  readonly levelTicks: number;
}

export interface TrailingTriggerState extends TrailingTriggerSpec, StateBase {
  readonly activeStatus: 0 | 1;
  /** Highest (FALLING) or lowest (RISING) price since activation; undefined before a price is seen. */
  readonly extremeTicks: number | undefined;
  /** The current stop level (the row's stopPrice); undefined while not active or no price seen yet. */
  readonly levelTicks: number | undefined;
}

export type TriggerState = FixedTriggerState | TrailingTriggerState;
