import { KLINE_INTERVALS } from '../market-data/klines/intervals.js';
import type { KlineInterval } from '../market-data/klines/intervals.js';

/** Topics of one symbol each (API-NOTES §8); `kline_<interval>` is parsed apart. */
export const SYMBOL_TOPICS = ['trade', 'realtimes', 'depth', 'diffDepth', 'markPrice', 'index', 'bookTicker'] as const;
/** Topics of the whole market: the symbol field is ignored. */
export const WHOLE_TOPICS = ['wholeRealTime', 'wholeBookTicker'] as const;

export type SymbolTopic = (typeof SYMBOL_TOPICS)[number] | `kline_${KlineInterval}`;
export type WholeTopic = (typeof WHOLE_TOPICS)[number];
export type Topic = SymbolTopic | WholeTopic;

/** The error frames of the public market socket; string codes, the socket stays open (API-NOTES §8). */
export const WS_ERRORS = {
  invalidSymbols: { code: '-100010', desc: 'Invalid Symbols!' },
  invalidJson: { code: '-10001', desc: 'Invalid JSON!' },
  invalidEvent: { code: '-10002', desc: 'Invalid event!' },
  invalidTopic: { code: '-10004', desc: 'Invalid topic!' },
} as const;

export type WsError = (typeof WS_ERRORS)[keyof typeof WS_ERRORS];

export type WsRequest =
  | { readonly kind: 'ping' }
  | { readonly kind: 'sub' | 'cancel'; readonly topic: Topic; readonly symbols: readonly string[]; readonly binary: boolean }
  | { readonly kind: 'cancel_all' }
  | { readonly kind: 'error'; readonly error: WsError };

/** The kline interval of a `kline_<interval>` topic, or undefined. */
export function klineTopicInterval(topic: string): KlineInterval | undefined {
  if (!topic.startsWith('kline_')) return undefined;
  const interval = topic.slice('kline_'.length);
  return KLINE_INTERVALS.find((i) => i === interval);
}

export function isWholeTopic(topic: Topic): topic is WholeTopic {
  return (WHOLE_TOPICS as readonly string[]).includes(topic);
}

function topicOf(text: string): Topic | undefined {
  const named = SYMBOL_TOPICS.find((t) => t === text) ?? WHOLE_TOPICS.find((t) => t === text);
  if (named !== undefined) return named;
  const interval = klineTopicInterval(text);
  return interval === undefined ? undefined : `kline_${interval}`;
}

/**
 * One inbound frame read as the exchange does: `{"ping":…}`, or `{symbol, topic, event, params}` with
 * `event` sub, cancel or cancel_all; symbols comma-separated without spaces (a space makes the id
 * invalid, as live). `isSymbol` says whether the exchange lists a symbol.
 */
export function parseRequest(text: string, isSymbol: (symbol: string) => boolean): WsRequest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'error', error: WS_ERRORS.invalidJson };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { kind: 'error', error: WS_ERRORS.invalidJson };
  const record = value as Record<string, unknown>;
  if ('ping' in record) return { kind: 'ping' };
  const event = record['event'];
  if (event === 'cancel_all') return { kind: 'cancel_all' };
  if (event !== 'sub' && event !== 'cancel') return { kind: 'error', error: WS_ERRORS.invalidEvent };
  const topic = typeof record['topic'] === 'string' ? topicOf(record['topic']) : undefined;
  if (topic === undefined) return { kind: 'error', error: WS_ERRORS.invalidTopic };
  const params = record['params'];
  const binaryValue = typeof params === 'object' && params !== null ? (params as Record<string, unknown>)['binary'] : undefined;
  const binary = binaryValue === true || binaryValue === 'true';
  if (isWholeTopic(topic)) return { kind: event, topic, symbols: [], binary };
  const symbolText = record['symbol'];
  if (typeof symbolText !== 'string' || symbolText === '') return { kind: 'error', error: WS_ERRORS.invalidSymbols };
  const symbols = symbolText.split(',');
  if (symbols.some((s) => !isSymbol(s))) return { kind: 'error', error: WS_ERRORS.invalidSymbols };
  return { kind: event, topic, symbols, binary };
}
