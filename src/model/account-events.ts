import type { Balance, FundingPayment, Position } from './account.js';
import type { AlgoOrderSnapshot, Fill, OrderSnapshot } from './orders.js';

/** Where an account event came from: the user data stream, or a REST reply or resync. */
export type AccountEventSource = 'stream' | 'rest';

export interface OrderUpdated {
  readonly type: 'account.order';
  readonly source: AccountEventSource;
  readonly time: number;
  readonly order: OrderSnapshot;
}

export interface AlgoOrderUpdated {
  readonly type: 'account.algo';
  readonly source: AccountEventSource;
  readonly time: number;
  readonly order: AlgoOrderSnapshot;
}

export interface OrderFilled {
  readonly type: 'account.fill';
  readonly source: AccountEventSource;
  readonly time: number;
  readonly fill: Fill;
}

export interface PositionUpdated {
  readonly type: 'account.position';
  readonly source: AccountEventSource;
  readonly time: number;
  readonly position: Position;
}

export interface BalanceUpdated {
  readonly type: 'account.balance';
  readonly source: AccountEventSource;
  readonly time: number;
  readonly balance: Balance;
}

/** A funding payment was settled (received or paid); the same payment may arrive again from a resync. */
export interface FundingSettled {
  readonly type: 'account.funding';
  readonly source: AccountEventSource;
  readonly time: number;
  readonly funding: FundingPayment;
}

/** Account events are never dropped or conflated on the bus. */
export type AccountEvent = OrderUpdated | AlgoOrderUpdated | OrderFilled | PositionUpdated | BalanceUpdated | FundingSettled;
