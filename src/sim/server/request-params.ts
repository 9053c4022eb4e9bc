import type { RequestParams } from './routing/types.js';

/** Decoded parameters: query pairs, then form pairs whose names the query lacks; `signature` never appears. */
export class DecodedParams implements RequestParams {
  private readonly values = new Map<string, string>();

  constructor(query: string, form: string) {
    for (const source of [query, form]) {
      for (const [name, value] of new URLSearchParams(source)) {
        if (name === 'signature' || this.values.has(name)) continue;
        this.values.set(name, value);
      }
    }
  }

  get(name: string): string | undefined {
    return this.values.get(name);
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  names(): readonly string[] {
    return [...this.values.keys()];
  }
}
