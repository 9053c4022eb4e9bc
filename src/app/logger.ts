import pino from 'pino';
import type { DestinationStream, Logger } from 'pino';

/**
 * Paths whose values never reach a log line: keys, secrets, tokens, signatures and listen keys,
 * wherever they appear up to three levels deep.
 */
export const REDACT_PATHS: readonly string[] = (() => {
  const names = ['apiKey', 'apiSecret', 'secret', 'token', 'password', 'signature', 'listenKey', 'authorization', 'x-bb-apikey', 'credentials'];
  const paths: string[] = [];
  for (const n of names) {
    const key = /^[A-Za-z_$][\w$]*$/.test(n) ? n : `["${n}"]`;
    const join = (prefix: string): string => (key.startsWith('[') ? `${prefix}${key}` : `${prefix}.${key}`);
    paths.push(key.startsWith('[') ? key : n, join('*'), join('*.*'), join('*.*.*'));
  }
  return paths;
})();

export interface LoggerOptions {
  readonly level?: string;
  /** Pretty, coloured output for a person at a terminal; JSON lines otherwise (journald, Docker). */
  readonly pretty?: boolean;
  readonly destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const base = {
    level: options.level ?? 'info',
    redact: { paths: [...REDACT_PATHS], censor: '[redacted]' },
  };
  if (options.destination !== undefined) return pino(base, options.destination);
  if (options.pretty === true) {
    return pino({ ...base, transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:standard', destination: 2 } } });
  }
  return pino(base, pino.destination(2));
}
