/** The levels the logging port writes at. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** The logging port (pino's Logger satisfies it); the kernel never writes to stdout itself. */
export interface Logger {
  /**
   * Whether a line at `level` would be written now: a hot path checks it before building a payload
   * nobody reads (pino's own method; its level may change while the process runs).
   */
  isLevelEnabled(level: LogLevel): boolean;
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  child(bindings: Record<string, unknown>): Logger;
}

/** A logger that drops everything (tests that do not look at logs, benchmarks). */
export const silentLogger: Logger = {
  isLevelEnabled: () => false,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
};
