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
} from './catalog-records.js';
export { CATALOG_DEFAULT_LIMIT, PRODUCT_DEFAULTS } from './catalog-records.js';
export type { CatalogErrorCode, CatalogFailure, CatalogResult } from './catalog-failure.js';
export type { CatalogSeed, SeedProduct, SeedUser } from './catalog-seed.js';
export { EMPTY_CATALOG_SEED, SAMPLE_CATALOG_SEED } from './catalog-seed.js';
export type { CatalogHttpReply, CatalogHttpRequest } from './catalog-http.js';
export { CATALOG_PATH_PREFIX } from './catalog-http.js';
export type { CatalogRouter, CatalogRouterOptions } from './catalog-router.js';
export { createCatalogRouter } from './catalog-router.js';
