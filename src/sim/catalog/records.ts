import type { Decimal } from '../../core/decimal.js';
import type { ProductStatus, UserRole, UserStatus } from '../../protocol/catalog/types.js';

/** A stored product. Times are epoch ms; the wire shows them as ISO 8601. */
export interface CatalogProduct {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly sku: string;
  readonly price: Decimal;
  /** ISO 4217 code. */
  readonly currency: string;
  readonly stock: number;
  readonly category: string;
  readonly images: readonly string[];
  readonly status: ProductStatus;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A stored user. The password is write-only and is not kept. */
export interface CatalogUser {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly role: UserRole;
  readonly status: UserStatus;
  readonly avatar?: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A new product. Absent fields take the defaults in PRODUCT_DEFAULTS. */
export interface ProductDraft {
  readonly name: string;
  readonly sku: string;
  readonly price: Decimal;
  readonly description?: string;
  readonly currency?: string;
  readonly stock?: number;
  readonly category?: string;
  readonly images?: readonly string[];
  readonly status?: ProductStatus;
}

/** A partial product update: any subset of the writable fields. */
export type ProductChanges = Partial<ProductDraft>;

/** The spec does not say which product fields are mandatory: name, sku and price are, the rest default. */
export const PRODUCT_DEFAULTS = {
  description: '',
  currency: 'USD',
  stock: 0,
  category: 'uncategorized',
  images: [] as readonly string[],
  status: 'active',
} as const satisfies Required<Omit<ProductDraft, 'name' | 'sku' | 'price'>>;

export interface UserDraft {
  readonly name: string;
  readonly email: string;
  readonly role: UserRole;
  /** Write-only: checked, never stored or returned. */
  readonly password: string;
  readonly avatar?: string;
}

/** A partial user update. An empty `avatar` removes the avatar. */
export interface UserChanges {
  readonly name?: string;
  readonly email?: string;
  readonly role?: UserRole;
  readonly status?: UserStatus;
  readonly avatar?: string;
}

/** One row of a bulk stock update. */
export interface StockRow {
  readonly productId: string;
  readonly stock: number;
}

export interface BulkStockOutcome {
  readonly updated: number;
  /** Rows naming no product. */
  readonly failed: number;
}

/** GET /v1/products filters. `status` defaults to active; prices bound inclusively. */
export interface ProductListQuery {
  readonly page?: number;
  readonly limit?: number;
  readonly category?: string;
  readonly status?: ProductStatus;
  readonly minPrice?: Decimal;
  readonly maxPrice?: Decimal;
  /** Case-insensitive substring of name or SKU. */
  readonly search?: string;
}

/** GET /v1/users filters; no status default. */
export interface UserListQuery {
  readonly page?: number;
  readonly limit?: number;
  readonly role?: UserRole;
  readonly status?: UserStatus;
  /** Case-insensitive substring of name or email. */
  readonly search?: string;
}

export const CATALOG_DEFAULT_LIMIT = 20;
