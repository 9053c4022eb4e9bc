/**
 * Empty arrays already in the elements kind they will hold. V8 makes `[]` an array of small integers
 * and moves it to objects or doubles at its first push, so a push optimized in one run deoptimizes
 * ("not a Smi") on the next run's fresh `[]`: a sweep runs one backtest after another in a thread.
 * An array emptied by `pop` keeps its kind.
 */

/** An empty array for objects, strings or functions. */
export function emptyObjectArray<T>(): T[] {
  const array: unknown[] = [null];
  array.pop();
  return array as T[];
}

/** An empty array for numbers that are not all small integers (epoch milliseconds). */
export function emptyDoubleArray(): number[] {
  const array = [0.5];
  array.pop();
  return array;
}
