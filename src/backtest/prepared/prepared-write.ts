import { Table, tableToIPC, vectorFromArray } from 'apache-arrow';
import type { Vector } from 'apache-arrow';
import type { MarketEvent, PriceLevel } from '../../sim/market-stream/events.js';
import type { MarketStreamHeader } from '../../sim/market-stream/format.js';
import { encodeHeader } from '../../sim/market-stream/format.js';
import type { PreparedColumnName, PreparedMetadata } from './prepared-format.js';
import { PREPARED_COLUMN_NAMES, PREPARED_COLUMNS, PREPARED_FORMAT, PREPARED_METADATA_KEY, PREPARED_VERSION } from './prepared-format.js';

export interface PreparedContent {
  readonly header: MarketStreamHeader;
  /** Every event of the recording, in recording order. */
  readonly events: readonly MarketEvent[];
  readonly recordingSha256: string;
  readonly recordingBytes: number;
  readonly torn?: { readonly line: number; readonly message: string };
}

type Cell = string | number | boolean | readonly string[] | null;

/** The recording as an Arrow IPC file (bytes), one record batch. */
export function encodePrepared(content: PreparedContent): Uint8Array {
  const { events } = content;
  const n = events.length;
  const columns = Object.fromEntries(PREPARED_COLUMN_NAMES.map((name) => [name, new Array<Cell>(n).fill(null)])) as Record<PreparedColumnName, Cell[]>;
  for (let i = 0; i < n; i++) {
    const event = events[i]!;
    columns.ts[i] = event.ts;
    columns.kind[i] = event.type;
    columns.symbol[i] = event.symbol;
    switch (event.type) {
      case 'depth':
        columns.bid_price[i] = pricesOf(event.bids);
        columns.bid_qty[i] = quantitiesOf(event.bids);
        columns.ask_price[i] = pricesOf(event.asks);
        columns.ask_qty[i] = quantitiesOf(event.asks);
        break;
      case 'trade':
        columns.price[i] = event.price;
        columns.qty[i] = event.qty;
        columns.trade_id[i] = event.id;
        columns.buyer_is_maker[i] = event.buyerIsMaker;
        break;
      case 'mark':
      case 'index':
        columns.price[i] = event.price;
        break;
      case 'funding':
        columns.funding_rate[i] = event.rate;
        columns.next_funding_time[i] = event.nextFundingTime;
        columns.funding_period[i] = event.period;
        break;
    }
  }
  const vectors = Object.fromEntries(PREPARED_COLUMN_NAMES.map((name) => [name, vectorFromArray(columns[name], PREPARED_COLUMNS[name]())])) as Record<PreparedColumnName, Vector>;
  const table = new Table(vectors);
  const metadata: PreparedMetadata = {
    format: PREPARED_FORMAT,
    version: PREPARED_VERSION,
    recordingSha256: content.recordingSha256,
    recordingBytes: content.recordingBytes,
    events: n,
    header: encodeHeader(content.header),
    ...(content.torn === undefined ? {} : { torn: content.torn }),
  };
  table.schema.metadata.set(PREPARED_METADATA_KEY, JSON.stringify(metadata));
  return tableToIPC(table, 'file');
}

function pricesOf(levels: readonly PriceLevel[]): string[] {
  return levels.map((level) => level[0]);
}

function quantitiesOf(levels: readonly PriceLevel[]): string[] {
  return levels.map((level) => level[1]);
}
