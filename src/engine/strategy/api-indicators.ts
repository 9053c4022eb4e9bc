/**
 * The indicator part of the strategy API (strategies may import any src/engine/strategy-api* module).
 * Indicators come from trading-signals, wrapped once: a strategy asks for "EMA(20) of 1m closes of
 * BTC-SWAP-USDT", feeds its events to `Indicators.onEvent`, and reads decimals.
 */
export { Indicators } from '../indicators/indicators.js';
export type { IndicatorSource } from '../indicators/indicators.js';
export type { Bands, Indicator } from '../indicators/indicator.js';
export { KLINE_INTERVALS, PRICE_SOURCES } from '../indicators/indicator-specs.js';
export type { BandsSpec, LineSpec, PeriodSpec, PriceSource, SeriesSpec } from '../indicators/indicator-specs.js';
export { crossing } from '../indicators/crossing.js';
export type { Crossing } from '../indicators/crossing.js';
