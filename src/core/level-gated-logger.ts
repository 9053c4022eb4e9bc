import type { LogLevel, Logger } from './logger.js';

/** pino's level numbers. */
const LEVELS: Readonly<Record<string, number>> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Number.POSITIVE_INFINITY };

/**
 * `logger` at a fixed `level`, for runs whose level never changes (backtests): a call below the level
 * costs nothing, and a child logger is only made (bindings serialized, secrets redacted) when one of
 * its lines is first written. What is written is what `logger` would write. An unknown level gates
 * nothing (the logger's own check still applies).
 */
export function levelGated(logger: Logger, level: string): Logger {
  return new GatedLogger(() => logger, LEVELS[level] ?? 0);
}

class GatedLogger implements Logger {
  private made: Logger | undefined;

  constructor(
    private readonly make: () => Logger,
    private readonly min: number,
  ) {}

  isLevelEnabled(level: LogLevel): boolean {
    return this.min <= (LEVELS[level] ?? 0) && this.target().isLevelEnabled(level);
  }

  debug(obj: object, msg?: string): void {
    if (this.min <= 20) write(this.target(), 'debug', obj, msg);
  }

  info(obj: object, msg?: string): void {
    if (this.min <= 30) write(this.target(), 'info', obj, msg);
  }

  warn(obj: object, msg?: string): void {
    if (this.min <= 40) write(this.target(), 'warn', obj, msg);
  }

  error(obj: object, msg?: string): void {
    if (this.min <= 50) write(this.target(), 'error', obj, msg);
  }

  child(bindings: Record<string, unknown>): Logger {
    return new GatedLogger(() => this.target().child(bindings), this.min);
  }

  private target(): Logger {
    this.made ??= this.make();
    return this.made;
  }
}

function write(logger: Logger, level: LogLevel, obj: object, msg: string | undefined): void {
  if (msg === undefined) logger[level](obj);
  else logger[level](obj, msg);
}
