/** The pagination block of a catalog list reply (002 API). */
export interface Pagination {
  readonly page: number;
  readonly limit: number;
  readonly total: number;
  readonly pages: number;
}

/** One page of a list endpoint. */
export interface CatalogPage<T> {
  readonly items: readonly T[];
  readonly pagination: Pagination;
}
