import type { Category } from '../../model/instrument.js';

/** The settlement category of a contract symbol: `-USDC` contracts are USDC-M, the rest USDT-M (API-NOTES §6.1). */
export function categoryOf(symbol: string): Category {
  return symbol.endsWith('-USDC') ? 'USDC' : 'USDT';
}

/** The distinct categories of the symbols, USDT first; USDT alone when there are none. */
export function categoriesOf(symbols: readonly string[]): readonly Category[] {
  const found = new Set(symbols.map(categoryOf));
  if (found.size === 0) return ['USDT'];
  return (['USDT', 'USDC'] as const).filter((c) => found.has(c));
}
