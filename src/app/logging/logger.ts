import pino from 'pino';
import type { DestinationStream, Logger } from 'pino';
import { fileURLToPath } from 'node:url';
import { prettyOptions } from './pretty-options.js';
import { REDACTED, SECRET_FIELD_NAMES, SecretValues, scrubSecrets } from '../../core/secret-text.js';

export const REDACT_PATHS: readonly string[] = SECRET_FIELD_NAMES.flatMap((name) => {
  const key = /^[A-Za-z_$][\w$]*$/.test(name) ? name : `["${name}"]`;
  const under = (prefix: string): string => (key.startsWith('[') ? `${prefix}${key}` : `${prefix}.${key}`);
  return [key, under('*'), under('*.*'), under('*.*.*')];
});

/** The pretty transport's module (compiled beside this one), loaded by pino's worker thread. */
const PRETTY_TRANSPORT = fileURLToPath(new URL('./pretty.js', import.meta.url));

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
    // One line per entry (trade lines compact and coloured: logging/pretty.ts), formatted in pino's worker thread.
    const { messageFormat: _inWorker, ...serializable } = prettyOptions(process.env['NO_COLOR'] === undefined);
    return pino({ ...base, transport: { target: PRETTY_TRANSPORT, options: { ...serializable, destination: 1 } } });
  }
  return pino(base, pino.destination(1));
}

/**
 * Rewrites a serialized line: `secrets`, then every secret the process knows by then (resolved keys and
 * tokens, listen keys as they are created), then secret-shaped text, become "[redacted]".
 */
export function scrubber(secrets: readonly string[]): (line: string) => string {
  const own = new SecretValues();
  for (const secret of secrets) own.add(secret);
  return (line) => scrubSecrets(line, own);
}
