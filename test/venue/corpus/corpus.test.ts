import { parseUserStreamFrame } from '../../../src/venue/parsers/user-stream-frames.js';
import type { ExchangeClient } from '../../../src/venue/exchange-client.js';
import { toInstrument } from '../../../src/venue/port/instrument-mapping.js';
import type { SkippedRows } from '../../../src/venue/wire/tolerant-list.js';
import { clientFor } from '../../support/client.js';
import { FixtureVenue } from '../../support/fixture-venue.js';
import { ALTERNATIVES, CALLS, corpusFile, LISTS, loadCorpus, requiredKeys, shapeOf } from './corpus.js';

/**
 * Every reply of the wire corpus (test/fixtures/wire) through the real client over loopback: none is a
 * malformed-response and none loses a row, since each carries what stratd needs (README "The exchange client").
 */

let venue: FixtureVenue;
let client: ExchangeClient;
let skipped: SkippedRows[];

beforeEach(async () => {
  venue = await FixtureVenue.start();
  client = clientFor(venue);
  skipped = [];
  client.rest.skippedRows$.subscribe((s) => skipped.push(s));
});
afterEach(async () => {
  client.stop();
  await venue.close();
});

const corpus = loadCorpus();
const rest = corpus.filter((c) => !c.endpoint.startsWith('WS '));

describe('the wire corpus', () => {
  it('names a client call for every REST corpus file, and a source for every sample', () => {
    expect(rest.map((c) => c.file).filter((f) => CALLS[f] === undefined)).toEqual([]);
    for (const c of corpus) for (const s of c.samples) expect(s.source.length).toBeGreaterThan(10);
  });

  it.each(rest.flatMap((c) => c.samples.map((s, i) => [c.file, i, s.source] as const)))('%s #%i parses through the client without a skipped row (%s)', async (file, index) => {
    const c = corpusFile(file);
    const call = CALLS[file];
    if (call === undefined) throw new Error(`no call for ${file}`);
    venue.reply(c.endpoint, { body: c.samples[index]?.reply });
    const result = await call(client);
    expect(result.ok ? 'ok' : `${result.error.kind} ${result.error.field ?? ''}: ${result.error.message}`).toBe('ok');
    expect(skipped).toEqual([]);
  });

  it.each(corpus.filter((c) => c.endpoint.startsWith('WS ')).flatMap((c) => c.samples.map((s) => [s.source, s.reply] as const)))('user stream frame parses: %s', (_source, frame) => {
    const reports: SkippedRows[] = [];
    const parsed = parseUserStreamFrame(JSON.stringify(frame), { onSkipped: (s) => reports.push(s) });
    expect(parsed.ok ? 'ok' : parsed.error).toBe('ok');
    expect(reports).toEqual([]);
  });

  it('the issue 16 replies: the real exchangeInfo maps its contract to an instrument; funding without period and tickers without b/a keep every row', async () => {
    const info = corpusFile('exchange-info.json');
    venue.reply(info.endpoint, { body: info.samples[1]?.reply });
    const read = await client.market.exchangeInfo();
    if (!read.ok) throw read.error;
    expect(read.value.symbols?.[0]?.filters.map((f) => f.filterType)).toContain('LIMIT_TRADING');
    const instrument = read.value.contracts[0] === undefined ? undefined : toInstrument(read.value.contracts[0]);
    expect(instrument?.ok && [instrument.value.symbol, instrument.value.tickSize.toFixed(), instrument.value.maxOpenOrders]).toEqual(['BTC-SWAP-USDT', '0.1', 100000]);

    const funding = corpusFile('funding-rate.json');
    venue.reply(funding.endpoint, { body: funding.samples[2]?.reply });
    const rates = await client.market.fundingRate();
    expect(rates.ok && rates.value.map((r) => [r.symbol, r.rate.toFixed(), r.period])).toEqual([
      ['BTC-SWAP-USDT', '0.0018099173553719', undefined],
      ['ETH-SWAP-USDT', '0.0001', undefined],
    ]);

    const tickers = corpusFile('contract-ticker-24hr.json');
    venue.reply(tickers.endpoint, { body: tickers.samples[1]?.reply });
    const rows = await client.market.contractTicker24h();
    expect(rows.ok && rows.value.map((r) => [r.symbol, r.bestBid?.toFixed(), r.lastPrice.toFixed()])).toEqual([
      ['BTC-SWAP-USDT', '111631.8', '111631.9'],
      ['ILLQ-SWAP-USDT', undefined, '0.0412'],
    ]);
  });

  it('every key a list row requires is one that every corpus row of that list carries', () => {
    const missing: string[] = [];
    for (const [file, lists] of Object.entries(LISTS)) {
      for (const list of lists) {
        const required = requiredKeys(list.row);
        const shape = shapeOf(list.row);
        for (const [i, sample] of corpusFile(file).samples.entries()) {
          for (const row of list.rows(sample.reply) ?? []) {
            const keys = new Set(Object.keys(row as object));
            for (const key of required) if (!keys.has(key)) missing.push(`${file} #${i}: ${key}`);
            for (const group of ALTERNATIVES) if (group.every((k) => k in shape) && !group.some((k) => keys.has(k))) missing.push(`${file} #${i}: one of ${group.join('/')}`);
          }
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
