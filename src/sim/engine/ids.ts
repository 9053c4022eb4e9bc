/**
 * Deterministic 64-bit ids as decimal text (19 digits, like the exchange's), from a prefix and a counter:
 * the same run produces the same ids. Different families use different prefixes so ids never collide.
 */
export class IdSequence {
  private counter = 0;

  constructor(private readonly prefix: string) {
    if (!/^[1-9]\d{0,5}$/.test(prefix)) throw new RangeError(`id prefix must be 1-6 digits: ${prefix}`);
  }

  next(): string {
    this.counter += 1;
    return this.prefix + String(this.counter).padStart(19 - this.prefix.length, '0');
  }
}

/**
 * The id families of the engine. A class, not an object literal: a literal gets V8's boilerplate the second
 * time its line runs (a process's second backtest), which widened its field types and deoptimized `applyFill`.
 */
export class EngineIds {
  readonly order = new IdSequence('2124');
  readonly trade = new IdSequence('2125');
  readonly ticket = new IdSequence('4900');
  readonly flow = new IdSequence('5398');
  readonly account = new IdSequence('1795');
  readonly clientOrder = new IdSequence('1767');
}
