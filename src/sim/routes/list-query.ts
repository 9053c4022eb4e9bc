import type { AlgoListQuery, Category, OrderListQuery, TradeListQuery } from '../engine/types.js';
import type { ParamReader } from './param-reader.js';
import { rejects } from './rejects.js';
import type { InstrumentLookup } from './route-context.js';
import { readSymbol } from './route-context.js';
import { STOP_CATEGORIES } from './wire-vocabulary.js';

/** startTime/endTime: 0 or less means "not set" (history routes then apply their rolling window). */
function readTimes(r: ParamReader): { startTime?: number; endTime?: number } {
  const startTime = r.integer('startTime');
  const endTime = r.integer('endTime');
  return {
    ...(startTime === undefined || startTime <= 0 ? {} : { startTime }),
    ...(endTime === undefined || endTime <= 0 ? {} : { endTime }),
  };
}

/**
 * Open and history order lists: symbol (empty means all), orderId cursor (only older ids; 0 means none),
 * limit 1..1000 (default 20), and the time range when `withTimes`.
 */
export function readOrderList(r: ParamReader, venue: InstrumentLookup, category: Category, withTimes: boolean): OrderListQuery {
  const symbol = readSymbol(r, venue, category, false);
  const cursor = r.id('orderId');
  const times = withTimes ? readTimes(r) : {};
  const limit = r.limit();
  return {
    ...(symbol === undefined ? {} : { symbol }),
    ...(cursor === undefined || /^0+$/.test(cursor) ? {} : { beforeOrderId: cursor }),
    ...times,
    limit,
  };
}

/** Plan and TP/SL lists: stopCategory STOP (default: plan rows only) or STOP_PROFIT_LOSS. */
export function readAlgoList(r: ParamReader, venue: InstrumentLookup, category: Category, withTimes: boolean): AlgoListQuery {
  const base = readOrderList(r, venue, category, withTimes);
  const stopCategory = r.choice('stopCategory', STOP_CATEGORIES) ?? 'STOP';
  return { ...base, stopCategory };
}

/** GET /api/v2/futures/user-trades: symbol required; fromId/toId 0 mean unset. */
export function readTradeList(r: ParamReader, venue: InstrumentLookup, category: Category): TradeListQuery {
  const symbol = readSymbol(r, venue, category) ?? '';
  const fromId = r.id('fromId');
  const toId = r.id('toId');
  const times = readTimes(r);
  const limit = r.limit();
  const set = (id: string | undefined): id is string => id !== undefined && !/^0+$/.test(id);
  return { symbol, ...(set(fromId) ? { fromId } : {}), ...(set(toId) ? { toId } : {}), ...times, limit };
}

/** v1 queries and cancels: `type` LIMIT (default) or STOP; `orderType` is read as an alias (agent-kit, §4.7). */
export function readV1Kind(r: ParamReader): 'LIMIT' | 'STOP' {
  const name = r.has('type') ? 'type' : 'orderType';
  return r.choice(name, ['LIMIT', 'STOP'] as const, rejects.badOrderType) ?? 'LIMIT';
}
