import type { Decimal } from '../../core/decimal.js';

/** Product status values (spec 002 "States and transitions"). */
export const PRODUCT_STATUSES = ['active', 'draft', 'archived'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

/** User role and status values. */
export const USER_ROLES = ['admin', 'user', 'viewer'] as const;
export type UserRole = (typeof USER_ROLES)[number];
export const USER_STATUSES = ['active', 'inactive', 'suspended'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** Page size bounds of both list endpoints; the walkers ask for the maximum. */
export const CATALOG_MAX_LIMIT = 100;

/**
 * GET /v1/products query, wire names. The server filters to `status=active` when `status` is
 * absent: to see drafts or archived products, pass the status explicitly.
 */
export interface ProductQuery {
  readonly page?: number;
  readonly limit?: number;
  readonly category?: string;
  readonly status?: ProductStatus;
  readonly min_price?: Decimal;
  readonly max_price?: Decimal;
  /** Matches name or SKU. */
  readonly search?: string;
}

/** GET /v1/users query (status has no server default). */
export interface UserQuery {
  readonly page?: number;
  readonly limit?: number;
  readonly role?: UserRole;
  readonly status?: UserStatus;
  /** Matches name or email. */
  readonly search?: string;
}

/** Filters for the page walkers: the query without `page` (the walker owns it). */
export type ProductFilter = Omit<ProductQuery, 'page'>;
export type UserFilter = Omit<UserQuery, 'page'>;

/**
 * POST /v1/products body. The spec does not say which fields are mandatory; name, sku and price are
 * required here because a product without them is meaningless, the rest are sent when given.
 */
export interface ProductCreate {
  readonly name: string;
  readonly description?: string;
  readonly sku: string;
  /** Sent as a JSON number written from the Decimal's exact text. */
  readonly price: Decimal;
  /** ISO 4217 code, e.g. "USD". */
  readonly currency?: string;
  readonly stock?: number;
  readonly category?: string;
  readonly status?: ProductStatus;
}

/** PATCH /v1/products/{product_id} body: any subset of the product fields. */
export interface ProductPatch {
  readonly name?: string;
  readonly description?: string;
  readonly sku?: string;
  readonly price?: Decimal;
  readonly currency?: string;
  readonly stock?: number;
  readonly category?: string;
  readonly images?: readonly string[];
  readonly status?: ProductStatus;
}

/** One row of POST /v1/products/bulk/stock. */
export interface StockUpdate {
  readonly product_id: string;
  readonly stock: number;
}

/** POST /v1/users body; `password` is write-only and never returned. */
export interface UserCreate {
  readonly name: string;
  readonly email: string;
  readonly role: UserRole;
  readonly password: string;
}

/** PATCH /v1/users/{user_id} body: any subset of the user fields. */
export interface UserPatch {
  readonly name?: string;
  readonly email?: string;
  readonly role?: UserRole;
  readonly status?: UserStatus;
  readonly avatar?: string;
}
