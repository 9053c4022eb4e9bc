import type { MarketEvent } from '../../../src/sim/market-stream/events.js';
import { decodeEventLine, eventLineSchema, eventToLineObject, explainBadEventLine } from '../../../src/sim/market-stream/event-lines.js';
import { encodeHeader, parseHeader } from '../../../src/sim/market-stream/format.js';
import { MarketGenerator } from '../../../src/sim/market-stream/generator.js';

const START = Date.UTC(2026, 0, 1);

describe('event lines', () => {
  it.each<[string, MarketEvent, string]>([
    [
      'depth',
      { type: 'depth', ts: 1757443224811, symbol: 'BTC-SWAP-USDT', bids: [['111021.4', '15224'], ['111021.3', '2691']], asks: [['111021.5', '45741']] },
      '{"e":"depth","t":1757443224811,"s":"BTC-SWAP-USDT","b":[["111021.4","15224"],["111021.3","2691"]],"a":[["111021.5","45741"]]}',
    ],
    [
      'trade',
      { type: 'trade', ts: 1757443158362, symbol: 'BTC-SWAP-USDT', id: '17', price: '111054.8', qty: '36', buyerIsMaker: false },
      '{"e":"trade","t":1757443158362,"s":"BTC-SWAP-USDT","i":"17","p":"111054.8","q":"36","ibm":false}',
    ],
    ['mark', { type: 'mark', ts: 1670897454000, symbol: 'BTC-SWAP-USDT', price: '17042.5' }, '{"e":"mark","t":1670897454000,"s":"BTC-SWAP-USDT","p":"17042.5"}'],
    ['index', { type: 'index', ts: 1670897454000, symbol: 'BTC-SWAP-USDT', price: '17040.1' }, '{"e":"index","t":1670897454000,"s":"BTC-SWAP-USDT","p":"17040.1"}'],
    [
      'funding',
      { type: 'funding', ts: 1668398400000, symbol: 'BTC-SWAP-USDT', rate: '-0.00018099', nextFundingTime: 1668427200000, period: '8H' },
      '{"e":"funding","t":1668398400000,"s":"BTC-SWAP-USDT","r":"-0.00018099","n":1668427200000,"pd":"8H"}',
    ],
  ])('%s: event ↔ line', (_type, event, line) => {
    expect(JSON.stringify(eventToLineObject(event))).toBe(line);
    expect(decodeEventLine(JSON.parse(line))).toEqual(event);
    expect(eventLineSchema.parse(JSON.parse(line))).toEqual(event);
  });

  it('the fast decoder and the zod schema agree on generated lines', () => {
    const generator = new MarketGenerator({ seed: 1, startTime: START });
    for (const event of generator.eventsUntil(START + 20_000)) {
      const raw: unknown = JSON.parse(JSON.stringify(eventToLineObject(event)));
      expect(decodeEventLine(raw)).toEqual(event);
      expect(eventLineSchema.parse(raw)).toEqual(event);
    }
  });

  it.each([
    ['unknown event', { e: 'ticker', t: 1, s: 'X', p: '1' }],
    ['missing time', { e: 'mark', s: 'X', p: '1' }],
    ['negative time', { e: 'mark', t: -1, s: 'X', p: '1' }],
    ['fractional time', { e: 'mark', t: 1.5, s: 'X', p: '1' }],
    ['time as text', { e: 'mark', t: '1', s: 'X', p: '1' }],
    ['price as number', { e: 'mark', t: 1, s: 'X', p: 1 }],
    ['exponent price', { e: 'index', t: 1, s: 'X', p: '1e5' }],
    ['negative price', { e: 'index', t: 1, s: 'X', p: '-1' }],
    ['dangling point', { e: 'index', t: 1, s: 'X', p: '1.' }],
    ['level of three', { e: 'depth', t: 1, s: 'X', b: [['1', '2', '3']], a: [] }],
    ['level as object', { e: 'depth', t: 1, s: 'X', b: [{ p: '1', q: '2' }], a: [] }],
    ['missing asks', { e: 'depth', t: 1, s: 'X', b: [] }],
    ['ibm as text', { e: 'trade', t: 1, s: 'X', i: '1', p: '1', q: '1', ibm: 'false' }],
    ['numeric trade id', { e: 'trade', t: 1, s: 'X', i: 1, p: '1', q: '1', ibm: false }],
    ['unknown period', { e: 'funding', t: 1, s: 'X', r: '0.0001', n: 2, pd: '2H' }],
    ['rate with plus', { e: 'funding', t: 1, s: 'X', r: '+0.0001', n: 2, pd: '8H' }],
    ['array', [1, 2]],
    ['null', null],
  ])('both refuse %s', (_name, raw) => {
    expect(decodeEventLine(raw)).toBeUndefined();
    expect(eventLineSchema.safeParse(raw).success).toBe(false);
    expect(explainBadEventLine(raw)).toMatch(/^not a valid event/);
  });
});

describe('header', () => {
  it('encodes with a fixed key order and parses back', () => {
    const header = new MarketGenerator({ seed: 12, startTime: START }).header();
    const line = encodeHeader(header);
    expect(line).toMatch(/^\{"format":"stratd-market-stream","version":1,"symbols":\["BTC-SWAP-USDT","ETH-SWAP-USDT","BTC-SWAP-USDC"\],"channels":\["depth","trade","mark","index","funding"\],"instruments":\[\{"symbol":"BTC-SWAP-USDT","category":"USDT",/);
    expect(line.endsWith(`"startTime":${START},"source":"generator","seed":12}`)).toBe(true);
    expect(parseHeader(JSON.parse(line), 'x.jsonl')).toEqual(header);
    // Additive fields need no new version: a reader ignores keys it does not know.
    expect(parseHeader({ ...(JSON.parse(line) as object), note: 'added later' }, 'x.jsonl')).toEqual(header);
    const { seed: _seed, ...recorded } = header;
    expect(parseHeader(JSON.parse(encodeHeader({ ...recorded, source: 'recorder' })), 'x.jsonl')).toEqual({ ...recorded, source: 'recorder' });
  });

  it('names the field that is wrong', () => {
    const header = new MarketGenerator({ seed: 12, startTime: START }).header();
    const bad = { ...header, instruments: header.instruments.map((i, n) => (n === 1 ? { ...i, tickSize: '1e-2' } : i)) };
    expect(() => parseHeader(bad, 'x.jsonl')).toThrow('x.jsonl:1: header field instruments.1.tickSize: expected plain decimal text');
  });
});
