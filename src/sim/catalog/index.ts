/** The simulator's product/user catalog service (spec 002): in-memory state and its HTTP router. */
export { SimCatalog } from './sim-catalog.js';
export type { SimCatalogOptions } from './sim-catalog.js';
export type {
  BulkStockOutcome,
  CatalogProduct,
  CatalogUser,
  ProductChanges,
  ProductDraft,
  ProductListQuery,
  StockRow,
  UserChanges,
  UserDraft,
  UserListQuery,
} from './records.js';
export { CATALOG_DEFAULT_LIMIT, PRODUCT_DEFAULTS } from './records.js';
export type { CatalogErrorCode, CatalogFailure, CatalogResult } from './failure.js';
export type { CatalogSeed, SeedProduct, SeedUser } from './seed.js';
export { EMPTY_CATALOG_SEED, SAMPLE_CATALOG_SEED } from './seed.js';
export type { CatalogHttpReply, CatalogHttpRequest } from './http.js';
export { CATALOG_PATH_PREFIX } from './http.js';
export type { CatalogRouter, CatalogRouterOptions } from './router.js';
export { createCatalogRouter } from './router.js';
