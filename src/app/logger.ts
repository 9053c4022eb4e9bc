import pino from 'pino';
import type { DestinationStream, Logger } from 'pino';

/** Field names whose values never reach a log line, wherever they appear up to three levels deep. */
const SECRET_FIELDS = [
  'apiKey',
  'apiSecret',
  'secret',
  'token',
  'password',
  'signature',
  'listenKey',
  'authorization',
  'x-bb-apikey',
  'X-BB-APIKEY',
  'credentials',
  'cookie',
];

export const REDACT_PATHS: readonly string[] = SECRET_FIELDS.flatMap((name) => {
  const key = /^[A-Za-z_$][\w$]*$/.test(name) ? name : `["${name}"]`;
  const under = (prefix: string): string => (key.startsWith('[') ? `${prefix}${key}` : `${prefix}.${key}`);
  return [key, under('*'), under('*.*'), under('*.*.*')];
});

const REDACTED = '[redacted]';

/**
 * Secrets inside text, which field redaction cannot see: a signed query string or an error message
 * quoting one, a user-stream URL (its last segment is the listen key), and any HMAC-SHA256 hex digest.
 */
const SECRET_TEXT: ReadonlyArray<readonly [RegExp, string]> = [
  [/(\bsignature=)[A-Za-z0-9%+/=_-]+/g, `$1${REDACTED}`],
  [/(\blistenKey=)[A-Za-z0-9%_-]+/g, `$1${REDACTED}`],
  [/(\/ws\/)[A-Za-z0-9%_-]{20,}/g, `$1${REDACTED}`],
  [/\b[0-9a-fA-F]{64}\b/g, REDACTED],
];

export interface LoggerOptions {
  readonly level?: string;
  /** Pretty, coloured output for a person at a terminal; JSON lines otherwise. Default: whether stdout is a terminal. */
  readonly pretty?: boolean;
  /** Default: standard output (journald and Docker collect it). */
  readonly destination?: DestinationStream;
  /** Values never printed, wherever they appear in a line (the configured API key and secret). */
  readonly secrets?: readonly string[];
}

/** The daemon's logger: pino JSON lines on stdout, keys, secrets, signatures and listen keys redacted. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const base = {
    level: options.level ?? 'info',
    redact: { paths: [...REDACT_PATHS], censor: REDACTED },
    hooks: { streamWrite: scrubber(options.secrets ?? []) },
  };
  if (options.destination !== undefined) return pino(base, options.destination);
  if (options.pretty ?? process.stdout.isTTY === true) {
    const colorize = process.env['NO_COLOR'] === undefined;
    return pino({ ...base, transport: { target: 'pino-pretty', options: { colorize, translateTime: 'SYS:standard', ignore: 'pid,hostname', destination: 1 } } });
  }
  return pino(base, pino.destination(1));
}

/** Rewrites a serialized line: known secret values, then secret-shaped text, become "[redacted]". */
export function scrubber(secrets: readonly string[]): (line: string) => string {
  // As they appear inside a JSON string; short values are left alone (they would match everywhere).
  const literals = secrets.filter((s) => s.length >= 8).map((s) => JSON.stringify(s).slice(1, -1));
  return (line) => {
    let text = line;
    for (const literal of literals) text = text.split(literal).join(REDACTED);
    for (const [pattern, replacement] of SECRET_TEXT) text = text.replace(pattern, replacement);
    return text;
  };
}
