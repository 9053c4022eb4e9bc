import type { CatalogJsonValue } from '../../protocol/catalog/json.js';
import type { CatalogProduct, CatalogUser, ProductChanges } from './records.js';

/** Records as the wire shows them (spec 002 field names and order); prices are bare JSON numbers. */

export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

type ProductField = keyof ProductChanges;

/** Wire order of the writable product fields. */
const PRODUCT_FIELDS: readonly ProductField[] = ['name', 'description', 'sku', 'price', 'currency', 'stock', 'category', 'images', 'status'];

function productField(p: CatalogProduct, field: ProductField): CatalogJsonValue {
  return p[field];
}

/** The whole product; list rows leave `images` out (the spec allows it), single replies carry it. */
export function productView(p: CatalogProduct, withImages: boolean): CatalogJsonValue {
  const out: Record<string, CatalogJsonValue> = { id: p.id };
  for (const field of PRODUCT_FIELDS) if (withImages || field !== 'images') out[field] = productField(p, field);
  out['created_at'] = isoTime(p.createdAt);
  out['updated_at'] = isoTime(p.updatedAt);
  return out;
}

/** PATCH reply: the fields the request changed, plus id and updated_at. */
export function productChangesView(p: CatalogProduct, changes: ProductChanges): CatalogJsonValue {
  const out: Record<string, CatalogJsonValue> = { id: p.id };
  for (const field of PRODUCT_FIELDS) if (changes[field] !== undefined) out[field] = productField(p, field);
  out['updated_at'] = isoTime(p.updatedAt);
  return out;
}

/** Never a password; `avatar` only when the user has one. */
export function userView(u: CatalogUser): CatalogJsonValue {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    role: u.role,
    status: u.status,
    avatar: u.avatar,
    created_at: isoTime(u.createdAt),
    updated_at: isoTime(u.updatedAt),
  };
}
