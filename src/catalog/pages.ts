import type { Result } from '../core/result.js';
import type { VenueError } from '../venue/venue-error.js';
import type { Pagination } from './schemas.js';

/** One page of a list endpoint. */
export interface CatalogPage<T> {
  readonly items: readonly T[];
  readonly pagination: Pagination;
}

/**
 * Walks pages 1, 2, … yielding records one by one. Stops after `pagination.pages`, once `total`
 * records were seen, or on an empty page, whichever comes first.
 *
 * Error convention: this is the one place the catalog client throws for an expected failure. A
 * `for await` loop cannot consume Result values, so a failed page (including an `invalid-request`
 * for a bad filter, raised before anything is sent) is thrown as its VenueError from the iterator's
 * `next()`; records already yielded stay valid. Every other catalog method returns a Result.
 */
export async function* walkPages<T>(fetchPage: (page: number) => Promise<Result<CatalogPage<T>, VenueError>>): AsyncGenerator<T, void, undefined> {
  let seen = 0;
  for (let page = 1; ; page += 1) {
    const result = await fetchPage(page);
    if (!result.ok) throw result.error;
    const { items, pagination } = result.value;
    for (const item of items) yield item;
    seen += items.length;
    if (items.length === 0 || page >= pagination.pages || seen >= pagination.total) return;
  }
}
