import type { Decimal } from '../../core/decimal.js';
import type { KlineUpdated } from '../../model/market-events.js';
import type { Bands } from './indicator.js';

/**
 * Told every value an indicator takes (`name`: what it is, e.g. "ema(9,close)@BTC-SWAP-USDT/1m"; `kline`:
 * the closed kline that produced it). Set by the runtime only while a check records (stratd
 * check-strategy): absent, indicators pay one undefined test per kline.
 */
export type IndicatorProbe = (name: string, kline: KlineUpdated, value: Decimal | Bands) => void;
