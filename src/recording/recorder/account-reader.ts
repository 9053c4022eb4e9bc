import type { AccountEvent } from '../../model/account-events.js';
import { lineBatches } from '../../sim/market-stream/line-batches.js';
import type { MarketStreamWarning } from '../../sim/market-stream/stream-error.js';
import { MarketStreamError } from '../../sim/market-stream/stream-error.js';
import type { AccountStreamHeader } from './account-format.js';
import { ACCOUNT_STREAM_FORMAT, ACCOUNT_STREAM_VERSION, accountHeaderSchema, decodeAccountLine } from './account-format.js';

export interface AccountStreamReadOptions {
  /** Told about a torn last line (skipped), as the market stream reader does. */
  readonly onWarning?: (warning: MarketStreamWarning) => void;
}

export interface AccountStream {
  readonly header: AccountStreamHeader;
  readonly events: readonly AccountEvent[];
}

/**
 * Reads an account section whole (plain or .gz). Like the market stream reader: a bad last line (a
 * recording cut short) is skipped with a warning; a bad line elsewhere, another format or version, is
 * a MarketStreamError naming the file and line.
 */
export async function readAccountStream(path: string, options: AccountStreamReadOptions = {}): Promise<AccountStream> {
  let header: AccountStreamHeader | undefined;
  const events: AccountEvent[] = [];
  let lineNumber = 0;
  let bad: { readonly line: number; readonly reason: string } | undefined;
  for await (const lines of lineBatches(path)) {
    for (const text of lines) {
      lineNumber++;
      if (bad !== undefined) throw new MarketStreamError('BAD_LINE', path, bad.line, bad.reason);
      let raw: unknown;
      try {
        raw = JSON.parse(text) as unknown;
      } catch {
        if (header === undefined) throw new MarketStreamError('NOT_A_MARKET_STREAM', path, 1, 'the first line is not JSON; expected an account stream header');
        bad = { line: lineNumber, reason: 'not valid JSON' };
        continue;
      }
      if (header === undefined) {
        header = parseAccountHeader(raw, path);
        continue;
      }
      const decoded = decodeAccountLine(raw);
      if (decoded.ok) events.push(decoded.event);
      else bad = { line: lineNumber, reason: decoded.reason };
    }
  }
  if (header === undefined) throw new MarketStreamError('NOT_A_MARKET_STREAM', path, 1, 'the file is empty; expected an account stream header');
  if (bad !== undefined) {
    options.onWarning?.({ code: 'TORN_LAST_LINE', file: path, line: bad.line, message: `skipped the last line (${bad.reason}); the recording was probably cut short` });
  }
  return { header, events };
}

function parseAccountHeader(raw: unknown, path: string): AccountStreamHeader {
  const record = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : undefined;
  if (record?.['format'] !== ACCOUNT_STREAM_FORMAT) {
    throw new MarketStreamError('NOT_A_MARKET_STREAM', path, 1, `not a stratd account stream: the first line must be a header with "format":"${ACCOUNT_STREAM_FORMAT}"`);
  }
  if (record['version'] !== ACCOUNT_STREAM_VERSION) {
    throw new MarketStreamError('UNSUPPORTED_VERSION', path, 1, `account stream version ${JSON.stringify(record['version'])} is not supported; this stratd reads version ${ACCOUNT_STREAM_VERSION}`);
  }
  const parsed = accountHeaderSchema.safeParse(raw);
  if (!parsed.success) throw new MarketStreamError('BAD_HEADER', path, 1, `header: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}
