import { decodeEventLine } from '../../sim/market-stream/event-lines.js';
import type { MarketStreamHeader } from '../../sim/market-stream/format.js';
import { parseHeader } from '../../sim/market-stream/format.js';
import { lineBatches } from '../../sim/market-stream/line-batches.js';
import { MarketStreamError } from '../../sim/market-stream/stream-error.js';
import { QualityScanner } from './scanner.js';
import type { QualityFinding, QualityThresholds, RecordingQuality } from './types.js';
import { MAX_FINDINGS, zeroCounts } from './types.js';

const parseJsonText = JSON.parse;

/**
 * Scans one recording (plain or .gz) for gaps, duplicates, out-of-order events and frozen books. Unlike
 * the replay's reader it goes on past time going backwards, so every such line is listed; lines the
 * reader would refuse for other reasons (bad JSON, an undeclared symbol) are left for it to report.
 * A file that is not a market stream throws its MarketStreamError.
 */
export async function recordingScan(path: string, thresholds?: QualityThresholds): Promise<RecordingQuality> {
  const counts = zeroCounts();
  const findings: QualityFinding[] = [];
  const batches = lineBatches(path);
  let scanner: QualityScanner | undefined;
  let symbols: ReadonlySet<string> = new Set();
  let lineNumber = 0;
  let events = 0;
  try {
    for await (const lines of batches) {
      for (const text of lines) {
        lineNumber++;
        if (scanner === undefined) {
          const header = headerOf(text, path);
          symbols = new Set(header.symbols);
          scanner = new QualityScanner({
            channels: header.channels,
            ...(header.levels === undefined ? {} : { levels: header.levels }),
            ...(thresholds === undefined ? {} : { thresholds }),
            onFinding: (finding) => {
              counts[finding.kind]++;
              if (findings.length < MAX_FINDINGS) findings.push(finding);
            },
          });
          continue;
        }
        let raw: unknown;
        try {
          raw = parseJsonText(text);
        } catch {
          continue;
        }
        const event = decodeEventLine(raw);
        if (event === undefined || !symbols.has(event.symbol)) continue;
        events++;
        scanner.observe(event, lineNumber);
      }
    }
  } finally {
    await batches.return(undefined);
  }
  if (scanner === undefined) throw new MarketStreamError('NOT_A_MARKET_STREAM', path, 1, 'the file is empty; expected a market stream header');
  scanner.finish();
  return { path, events, counts, findings };
}

function headerOf(text: string, path: string): MarketStreamHeader {
  let value: unknown;
  try {
    value = parseJsonText(text);
  } catch {
    throw new MarketStreamError('NOT_A_MARKET_STREAM', path, 1, 'the first line is not JSON; expected a market stream header');
  }
  return parseHeader(value, path);
}
