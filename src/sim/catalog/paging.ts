import type { CatalogPage } from '../../catalog/pages.js';

/** One page of `items` (page from 1). A page past the end is empty; `pages` is 0 when nothing matches. */
export function paginate<T>(items: readonly T[], page: number, limit: number): CatalogPage<T> {
  const total = items.length;
  return {
    items: items.slice((page - 1) * limit, page * limit),
    pagination: { page, limit, total, pages: Math.ceil(total / limit) },
  };
}
