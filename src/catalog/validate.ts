import { Decimal } from '../core/decimal.js';
import type { Check } from '../venue/validate.js';
import { firstViolation } from '../venue/validate.js';
import { invalidRequest } from '../venue/venue-error.js';
import { CATALOG_MAX_LIMIT, PRODUCT_STATUSES, USER_ROLES, USER_STATUSES } from '../protocol/catalog/types.js';
import type { ProductCreate, ProductPatch, ProductQuery, StockUpdate, UserCreate, UserPatch, UserQuery } from '../protocol/catalog/types.js';

/**
 * Local checks of spec 002's request rules. Each returns the first violation as a VenueError of kind
 * `invalid-request` naming the rule and field, or undefined; the client then sends nothing.
 */

/** Deliberately simple: one @, no blanks, a dot in the domain. The server remains the authority. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const CURRENCY = /^[A-Z]{3}$/;

export function validId(label: string, field: string, id: string): Check {
  return typeof id === 'string' && id.trim() !== '' ? undefined : invalidRequest(label, 'id-required', `${field} must be a non-empty string`, field);
}

function paging(label: string, page: number | undefined, limit: number | undefined): Check {
  if (page !== undefined && !(Number.isSafeInteger(page) && page >= 1)) {
    return invalidRequest(label, 'catalog-page', `page must be an integer of at least 1, got ${page}`, 'page');
  }
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= CATALOG_MAX_LIMIT)) {
    return invalidRequest(label, 'catalog-page-limit', `limit must be an integer from 1 to ${CATALOG_MAX_LIMIT}, got ${limit}`, 'limit');
  }
  return undefined;
}

function oneOf(label: string, field: string, value: string | undefined, allowed: readonly string[]): Check {
  if (value === undefined || allowed.includes(value)) return undefined;
  return invalidRequest(label, `${field}-enum`, `${field} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`, field);
}

function nonEmpty(label: string, field: string, value: string | undefined, required: boolean): Check {
  if (value === undefined && !required) return undefined;
  return typeof value === 'string' && value.trim() !== '' ? undefined : invalidRequest(label, 'mandatory-parameter', `${field} must be a non-empty string`, field);
}

function positivePrice(label: string, value: Decimal | undefined, required: boolean): Check {
  if (value === undefined && !required) return undefined;
  return value instanceof Decimal && value.isFinite() && value.gt(0) ? undefined : invalidRequest(label, 'price-positive', 'price must be greater than 0', 'price');
}

function stockCount(label: string, value: number | undefined, field = 'stock'): Check {
  if (value === undefined) return undefined;
  return Number.isSafeInteger(value) && value >= 0 ? undefined : invalidRequest(label, 'stock-non-negative-integer', `${field} must be a non-negative integer, got ${value}`, field);
}

function email(label: string, value: string | undefined, required: boolean): Check {
  if (value === undefined && !required) return undefined;
  return typeof value === 'string' && EMAIL.test(value) ? undefined : invalidRequest(label, 'email-format', `email is not a valid address: ${JSON.stringify(value)}`, 'email');
}

function currency(label: string, value: string | undefined): Check {
  if (value === undefined || CURRENCY.test(value)) return undefined;
  return invalidRequest(label, 'currency-code', `currency must be an ISO 4217 code such as USD, got ${JSON.stringify(value)}`, 'currency');
}

function priceFilter(label: string, field: 'min_price' | 'max_price', value: Decimal | undefined): Check {
  if (value === undefined) return undefined;
  return value instanceof Decimal && value.isFinite() && value.gte(0) ? undefined : invalidRequest(label, 'price-filter', `${field} must be a non-negative number`, field);
}

function nonEmptyPatch(label: string, patch: object): Check {
  return Object.values(patch).some((v) => v !== undefined) ? undefined : invalidRequest(label, 'patch-empty', 'the patch changes no field');
}

export function checkProductQuery(label: string, q: ProductQuery): Check {
  return firstViolation(
    () => paging(label, q.page, q.limit),
    () => oneOf(label, 'status', q.status, PRODUCT_STATUSES),
    () => priceFilter(label, 'min_price', q.min_price),
    () => priceFilter(label, 'max_price', q.max_price),
    () =>
      q.min_price !== undefined && q.max_price !== undefined && q.min_price.gt(q.max_price)
        ? invalidRequest(label, 'price-filter', 'min_price must not exceed max_price', 'min_price')
        : undefined,
  );
}

export function checkUserQuery(label: string, q: UserQuery): Check {
  return firstViolation(
    () => paging(label, q.page, q.limit),
    () => oneOf(label, 'role', q.role, USER_ROLES),
    () => oneOf(label, 'status', q.status, USER_STATUSES),
  );
}

export function checkProductCreate(label: string, p: ProductCreate): Check {
  return firstViolation(
    () => nonEmpty(label, 'name', p.name, true),
    () => nonEmpty(label, 'sku', p.sku, true),
    () => positivePrice(label, p.price, true),
    () => currency(label, p.currency),
    () => stockCount(label, p.stock),
    () => oneOf(label, 'status', p.status, PRODUCT_STATUSES),
  );
}

export function checkProductPatch(label: string, p: ProductPatch): Check {
  return firstViolation(
    () => nonEmptyPatch(label, p),
    () => nonEmpty(label, 'name', p.name, false),
    () => nonEmpty(label, 'sku', p.sku, false),
    () => positivePrice(label, p.price, false),
    () => currency(label, p.currency),
    () => stockCount(label, p.stock),
    () => oneOf(label, 'status', p.status, PRODUCT_STATUSES),
  );
}

export function checkStockUpdates(label: string, updates: readonly StockUpdate[]): Check {
  if (updates.length === 0) return invalidRequest(label, 'bulk-updates-empty', 'updates must hold at least one row', 'updates');
  for (const [i, u] of updates.entries()) {
    const found = firstViolation(
      () => validId(label, `updates[${i}].product_id`, u.product_id),
      () => (u.stock === undefined ? invalidRequest(label, 'stock-non-negative-integer', `updates[${i}].stock is required`, `updates[${i}].stock`) : stockCount(label, u.stock, `updates[${i}].stock`)),
    );
    if (found !== undefined) return found;
  }
  return undefined;
}

export function checkUserCreate(label: string, u: UserCreate): Check {
  return firstViolation(
    () => nonEmpty(label, 'name', u.name, true),
    () => email(label, u.email, true),
    () => (u.role === undefined ? invalidRequest(label, 'role-enum', 'role is required', 'role') : oneOf(label, 'role', u.role, USER_ROLES)),
    () => nonEmpty(label, 'password', u.password, true),
  );
}

export function checkUserPatch(label: string, u: UserPatch): Check {
  return firstViolation(
    () => nonEmptyPatch(label, u),
    () => nonEmpty(label, 'name', u.name, false),
    () => email(label, u.email, false),
    () => oneOf(label, 'role', u.role, USER_ROLES),
    () => oneOf(label, 'status', u.status, USER_STATUSES),
  );
}
