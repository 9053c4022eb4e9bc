import { envelopeSchema, readEnvelope } from '../../../src/venue/market-ws/wire.js';

/**
 * The market socket's plain envelope reader against `envelopeSchema`, which it stands in for on a data
 * frame's way to the kernel: a frame it takes gives the value the schema gives (same keys, same
 * values), and it gives a frame up only where the schema decides (refuses it, or the reader cannot tell).
 */

const BOOK_TICKER = {
  topic: 'bookTicker',
  params: { realtimeInterval: '24h', binary: 'false' },
  data: { s: 'BTC-SWAP-USDT', t: 1795717829631, b: '111141.3', bq: '2', a: '111141.4', aq: '3' },
  f: false,
  sendTime: 1795717829640,
  shared: false,
};

const TAKEN: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
  ['a book ticker frame as the simulator sends it', BOOK_TICKER],
  ['a kline frame', { symbol: 'BTC-SWAP-USDT', symbolName: 'BTC-SWAP-USDT', topic: 'kline', params: { klineType: '1m', binary: 'false' }, data: [], f: true, sendTime: '1795717829640' }],
  ['flags as text, no params, no send time', { topic: 'depth', symbol: 'ETH-SWAP-USDT', data: null, f: 'true' }],
  ['the least: a topic and data', { topic: 'trade', data: [1, 2] }],
];

const REFUSED_OR_SCHEMAS: ReadonlyArray<readonly [string, unknown]> = [
  ['no data', { topic: 'bookTicker' }],
  ['a topic that is no text', { topic: 7, data: {} }],
  ['a symbol that is no text', { topic: 'bookTicker', symbol: 5, data: {} }],
  ['params that are no object', { topic: 'bookTicker', params: [], data: {} }],
  ['a kline type that is no text', { topic: 'kline', params: { klineType: 1 }, data: {} }],
  ['a flag that is no boolean', { topic: 'bookTicker', f: 'yes', data: {} }],
  ['a send time that is no epoch', { topic: 'bookTicker', sendTime: -1, data: {} }],
  ['a send time past a safe integer', { topic: 'bookTicker', sendTime: '99999999999999999999', data: {} }],
  ['a list', [BOOK_TICKER]],
  ['null', null],
];

describe('readEnvelope', () => {
  it.each(TAKEN)('%s: the schema’s very value', (_name, frame) => {
    const parsed = envelopeSchema.safeParse(frame);
    expect(parsed.success).toBe(true);
    expect(readEnvelope(frame)).toStrictEqual(parsed.data);
    expect(Object.keys(readEnvelope(frame) ?? {}).sort()).toEqual(Object.keys(parsed.data ?? {}).sort());
  });

  it.each(REFUSED_OR_SCHEMAS)('%s: given up, the schema decides', (_name, frame) => {
    expect(readEnvelope(frame)).toBeUndefined();
    expect(envelopeSchema.safeParse(frame).success).toBe(false);
  });
});
