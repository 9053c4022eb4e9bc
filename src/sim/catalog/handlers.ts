import type { CatalogResult } from './failure.js';
import type { CatalogHttpReply, CatalogHttpRequest } from './http.js';
import { failureReply, listReply, messageReply, singleReply } from './envelopes.js';
import { productChangesView, productView, userView } from './views.js';
import { decodeProductChanges, decodeProductDraft, decodeProductQuery, decodeStockRows, decodeUserChanges, decodeUserDraft, decodeUserQuery, parseBody } from './wire-in.js';
import type { SimCatalog } from './sim-catalog.js';

/** One handler per catalog endpoint: decode the request, call the state, encode the envelope. */

function chain<A, B>(result: CatalogResult<A>, next: (value: A) => CatalogResult<B>): CatalogResult<B> {
  return result.ok ? next(result.value) : result;
}

function settle<T>(result: CatalogResult<T>, encode: (value: T) => CatalogHttpReply): CatalogHttpReply {
  return result.ok ? encode(result.value) : failureReply(result.error);
}

// ---- products

export function listProducts(catalog: SimCatalog, req: CatalogHttpRequest): CatalogHttpReply {
  const page = chain(decodeProductQuery(req.query), (query) => catalog.listProducts(query));
  return settle(page, ({ items, pagination }) => listReply(items.map((p) => productView(p, false)), pagination));
}

export function getProduct(catalog: SimCatalog, id: string): CatalogHttpReply {
  return settle(catalog.getProduct(id), (p) => singleReply(200, productView(p, true)));
}

export function createProduct(catalog: SimCatalog, req: CatalogHttpRequest): CatalogHttpReply {
  const created = chain(chain(parseBody(req.body), decodeProductDraft), (draft) => catalog.createProduct(draft));
  return settle(created, (p) => singleReply(201, productView(p, true), 'Product created'));
}

export function updateProduct(catalog: SimCatalog, id: string, req: CatalogHttpRequest): CatalogHttpReply {
  const changes = chain(parseBody(req.body), decodeProductChanges);
  if (!changes.ok) return failureReply(changes.error);
  return settle(catalog.updateProduct(id, changes.value), (p) => singleReply(200, productChangesView(p, changes.value), 'Product updated'));
}

export function deleteProduct(catalog: SimCatalog, id: string): CatalogHttpReply {
  return settle(catalog.deleteProduct(id), () => messageReply('Product deleted'));
}

export function bulkUpdateStock(catalog: SimCatalog, req: CatalogHttpRequest): CatalogHttpReply {
  const outcome = chain(chain(parseBody(req.body), decodeStockRows), (rows) => catalog.bulkUpdateStock(rows));
  return settle(outcome, ({ updated, failed }) => singleReply(200, { updated, failed }, 'Stock updated'));
}

// ---- users

export function listUsers(catalog: SimCatalog, req: CatalogHttpRequest): CatalogHttpReply {
  const page = chain(decodeUserQuery(req.query), (query) => catalog.listUsers(query));
  return settle(page, ({ items, pagination }) => listReply(items.map(userView), pagination));
}

export function getUser(catalog: SimCatalog, id: string): CatalogHttpReply {
  return settle(catalog.getUser(id), (u) => singleReply(200, userView(u)));
}

export function createUser(catalog: SimCatalog, req: CatalogHttpRequest): CatalogHttpReply {
  const created = chain(chain(parseBody(req.body), decodeUserDraft), (draft) => catalog.createUser(draft));
  return settle(created, (u) => singleReply(201, userView(u), 'User created'));
}

export function updateUser(catalog: SimCatalog, id: string, req: CatalogHttpRequest): CatalogHttpReply {
  const updated = chain(chain(parseBody(req.body), decodeUserChanges), (changes) => catalog.updateUser(id, changes));
  return settle(updated, (u) => singleReply(200, userView(u), 'User updated'));
}

export function deleteUser(catalog: SimCatalog, id: string): CatalogHttpReply {
  return settle(catalog.deleteUser(id), () => messageReply('User deleted'));
}
