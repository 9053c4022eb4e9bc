/**
 * Wire shapes of the public market-data replies (document 001 "Market data shapes", API-NOTES
 * §5.2–5.6 live forms). Decimals are text; `t`-style times are numbers (API-NOTES §6.5 RULE), 64-bit
 * ids and funding times strings.
 */
import type { PriceLevel } from '../market-stream/events.js';
import type { FundingPeriod } from '../market-stream/events.js';

export interface OrderBookRow {
  readonly t: number;
  readonly b: readonly PriceLevel[];
  readonly a: readonly PriceLevel[];
}

export interface TradeRow {
  readonly t: number;
  readonly p: string;
  readonly q: string;
  readonly ibm: boolean;
}

/** open time, o, h, l, c, volume (contracts), close time (always 0 live), quote volume, trades, taker-buy volume, taker-buy quote volume. */
export type KlineRow = readonly [number, string, string, string, string, string, 0, string, number, string, string];

export interface IndexKlineRow {
  readonly t: number;
  readonly s: string;
  readonly sn: string;
  readonly c: string;
  readonly h: string;
  readonly l: string;
  readonly o: string;
  readonly v: string;
  readonly st: number;
}

export interface MarkKlineRow {
  readonly symbol: string;
  readonly time: number;
  readonly low: string;
  readonly open: string;
  readonly high: string;
  readonly close: string;
  readonly volume: string;
  readonly curId: number;
  readonly klineType: string;
  readonly change: string;
}

/** `{code, data}` of the index and mark-price kline routes (code 200 as in ccxt's captures). */
export interface CodeDataReply<T> {
  readonly code: 200;
  readonly data: readonly T[];
}

export interface Ticker24hRow {
  readonly t: number;
  readonly s: string;
  readonly c: string;
  readonly h: string;
  readonly l: string;
  readonly o: string;
  readonly b: string;
  readonly a: string;
  readonly v: string;
  readonly qv: string;
  readonly pc: string;
  readonly pcp: string;
  /** Open interest in contracts (contracts only; undocumented live field). */
  readonly op?: string;
}

export interface PriceTickerRow {
  readonly s: string;
  readonly p: string;
}

export interface BookTickerRow {
  readonly t: number;
  readonly s: string;
  readonly b: string;
  readonly bq: string;
  readonly a: string;
  readonly aq: string;
}

export interface MarkPriceRow {
  readonly exchangeId: number;
  readonly symbolId: string;
  readonly price: string;
  readonly time: number;
}

export interface IndexPricesReply {
  readonly index: Readonly<Record<string, string>>;
  readonly edp: Readonly<Record<string, string>>;
}

export interface IndexComponentsReply {
  readonly index: string;
  readonly edp: string;
  readonly components: readonly { readonly exchange: string; readonly spotPair: string; readonly weight: string }[];
  readonly time: number;
}

export interface FundingRateRow {
  readonly symbol: string;
  readonly rate: string;
  readonly period: FundingPeriod;
  readonly nextFundingTime: string;
  readonly interest: string;
  readonly fundingRateCap: string;
  readonly fundingRateFloor: string;
}

export interface FundingHistoryRow {
  readonly id: string;
  readonly symbol: string;
  readonly settleTime: string;
  readonly settleRate: string;
  readonly period: FundingPeriod;
}

export interface OpenInterestReply {
  readonly openInterestList: readonly { readonly symbol: string; readonly size: string }[];
}

export interface LongShortRow {
  readonly symbol: string;
  readonly timeStamp: number;
  readonly longShortRatio: string;
  readonly longAccount: string;
  readonly shortAccount: string;
}

export interface InsuranceFundReply {
  readonly list: readonly { readonly coin: string; readonly symbol: string; readonly value: string; readonly updateTime: string }[];
}

export interface RiskLimitRow {
  readonly level: number;
  readonly quantity: string;
  readonly maintainMargin: string;
  readonly initialMargin: string;
  readonly maxLeverage: number;
}
