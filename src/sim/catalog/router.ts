import { invariant } from '../../core/errors.js';
import { methodNotAllowed, unauthorized } from './failure.js';
import { failureReply } from './envelopes.js';
import * as handlers from './handlers.js';
import type { CatalogHttpReply, CatalogHttpRequest } from './http.js';
import { constantTimeEquals } from '../../core/secret-compare.js';
import type { SimCatalog } from './sim-catalog.js';

export interface CatalogRouterOptions {
  /** The expected API key: every request must carry `Authorization: Bearer <token>`. */
  readonly token: string;
}

export interface CatalogRouter {
  /** The reply, or undefined when `request.path` is not a catalog path. */
  handle(request: CatalogHttpRequest): CatalogHttpReply | undefined;
}

type Resource = 'products' | 'product' | 'bulkStock' | 'users' | 'user';

interface Target {
  readonly resource: Resource;
  /** The decoded `{product_id}` / `{user_id}`. */
  readonly id: string;
}

const ALLOWED: Readonly<Record<Resource, readonly string[]>> = {
  products: ['GET', 'POST'],
  product: ['GET', 'PATCH', 'DELETE'],
  bulkStock: ['POST'],
  users: ['GET', 'POST'],
  user: ['GET', 'PATCH', 'DELETE'],
};

/** `/v1/products`, `/v1/products/bulk/stock`, `/v1/products/{id}`, `/v1/users`, `/v1/users/{id}` (a trailing slash is ignored). */
function matchPath(path: string): Target | undefined {
  const parts = path.replace(/\/+$/, '').split('/');
  if (parts[0] !== '' || parts[1] !== 'v1') return undefined;
  const [, , collection, id, ...rest] = parts;
  if (collection !== 'products' && collection !== 'users') return undefined;
  if (id === undefined) return { resource: collection, id: '' };
  if (collection === 'products' && id === 'bulk' && rest.length === 1 && rest[0] === 'stock') return { resource: 'bulkStock', id: '' };
  if (rest.length > 0 || id === '') return undefined;
  return { resource: collection === 'products' ? 'product' : 'user', id: decodeSegment(id) };
}

/** A malformed escape stays as sent: it then names no record. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function header(headers: CatalogHttpRequest['headers'], name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return value;
  return undefined;
}

function bearer(headers: CatalogHttpRequest['headers']): string | undefined {
  return /^Bearer +(\S+) *$/i.exec(header(headers, 'authorization') ?? '')?.[1];
}

/**
 * The catalog service (spec 002) over a SimCatalog. Order of checks: path → token (401
 * unauthorized) → method (405 with Allow) → body and query (400) → the state (404, 400, 409).
 */
export function createCatalogRouter(catalog: SimCatalog, options: CatalogRouterOptions): CatalogRouter {
  invariant(options.token.trim() !== '', 'CATALOG_TOKEN', 'the catalog needs a non-empty API token');
  const dispatch = (target: Target, method: string, req: CatalogHttpRequest): CatalogHttpReply | undefined => {
    const { id } = target;
    switch (`${target.resource} ${method}`) {
      case 'products GET': return handlers.listProducts(catalog, req);
      case 'products POST': return handlers.createProduct(catalog, req);
      case 'product GET': return handlers.getProduct(catalog, id);
      case 'product PATCH': return handlers.updateProduct(catalog, id, req);
      case 'product DELETE': return handlers.deleteProduct(catalog, id);
      case 'bulkStock POST': return handlers.bulkUpdateStock(catalog, req);
      case 'users GET': return handlers.listUsers(catalog, req);
      case 'users POST': return handlers.createUser(catalog, req);
      case 'user GET': return handlers.getUser(catalog, id);
      case 'user PATCH': return handlers.updateUser(catalog, id, req);
      case 'user DELETE': return handlers.deleteUser(catalog, id);
      default: return undefined;
    }
  };
  return {
    handle(req) {
      const target = matchPath(req.path);
      if (target === undefined) return undefined;
      const given = bearer(req.headers);
      if (given === undefined || !constantTimeEquals(given, options.token)) return failureReply(unauthorized(), { 'www-authenticate': 'Bearer' });
      const method = req.method.toUpperCase();
      const allowed = ALLOWED[target.resource];
      return dispatch(target, method, req) ?? failureReply(methodNotAllowed(method, allowed), { allow: allowed.join(', ') });
    },
  };
}
