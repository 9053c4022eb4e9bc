import { decText } from '../core/decimal.js';
import type { MirrorRow } from '../model/catalog-mirror.js';
import type { Product, User } from './schemas.js';

/** A product as mirrored: every field as the API gave it, the price as exact decimal text. */
export function productRow(product: Product): MirrorRow {
  return { id: product.id, data: { ...product, price: decText(product.price) } };
}

export function userRow(user: User): MirrorRow {
  return { id: user.id, data: { ...user } };
}
