import type { Decimal } from '../../core/decimal.js';
import { CATALOG_MAX_LIMIT, PRODUCT_STATUSES, USER_ROLES, USER_STATUSES } from '../../protocol/catalog/types.js';
import type { CatalogFailure } from './failure.js';
import { invalidInput } from './failure.js';
import type { ProductChanges, ProductDraft, ProductListQuery, StockRow, UserChanges, UserDraft, UserListQuery } from './records.js';

/**
 * The catalog's value rules (spec 002 "Errors": invalid input → 400 invalid_request naming the field).
 * Each check returns the first violation or undefined. JSON types are checked earlier, by the decoder.
 */
type Check = CatalogFailure | undefined;

/** One @, no blanks, a dot in the domain. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const CURRENCY = /^[A-Z]{3}$/;

function first(...checks: ReadonlyArray<() => Check>): Check {
  for (const check of checks) {
    const found = check();
    if (found !== undefined) return found;
  }
  return undefined;
}

function text(field: string, value: string | undefined): Check {
  return value === undefined || value.trim() !== '' ? undefined : invalidInput(`${field} must not be empty`, field);
}

function oneOf(field: string, value: string | undefined, allowed: readonly string[]): Check {
  return value === undefined || allowed.includes(value) ? undefined : invalidInput(`${field} must be one of ${allowed.join(', ')}`, field);
}

function positivePrice(value: Decimal | undefined): Check {
  return value === undefined || (value.isFinite() && value.gt(0)) ? undefined : invalidInput('price must be a positive number', 'price');
}

function stockCount(field: string, value: number | undefined): Check {
  return value === undefined || (Number.isSafeInteger(value) && value >= 0) ? undefined : invalidInput(`${field} must be a non-negative integer`, field);
}

function currency(value: string | undefined): Check {
  return value === undefined || CURRENCY.test(value) ? undefined : invalidInput('currency must be an ISO 4217 code such as USD', 'currency');
}

function email(value: string | undefined): Check {
  return value === undefined || EMAIL.test(value) ? undefined : invalidInput('email is not a valid address', 'email');
}

function someField(changes: object): Check {
  return Object.values(changes).some((v) => v !== undefined) ? undefined : invalidInput('the body changes no field');
}

function productFields(p: ProductChanges): Check {
  return first(
    () => text('name', p.name),
    () => text('sku', p.sku),
    () => positivePrice(p.price),
    () => currency(p.currency),
    () => stockCount('stock', p.stock),
    () => oneOf('status', p.status, PRODUCT_STATUSES),
  );
}

export function checkProductDraft(draft: ProductDraft): Check {
  return productFields(draft);
}

export function checkProductChanges(changes: ProductChanges): Check {
  return first(
    () => someField(changes),
    () => productFields(changes),
  );
}

/** The stored user fields (seed users have no password). */
export function checkUserFields(u: UserChanges): Check {
  return first(
    () => text('name', u.name),
    () => email(u.email),
    () => oneOf('role', u.role, USER_ROLES),
    () => oneOf('status', u.status, USER_STATUSES),
  );
}

export function checkUserDraft(draft: UserDraft): Check {
  return first(
    () => checkUserFields(draft),
    () => text('password', draft.password),
  );
}

export function checkUserChanges(changes: UserChanges): Check {
  return first(
    () => someField(changes),
    () => checkUserFields(changes),
  );
}

export function checkStockRows(rows: readonly StockRow[]): Check {
  if (rows.length === 0) return invalidInput('updates must hold at least one row', 'updates');
  for (const [i, row] of rows.entries()) {
    const found = first(
      () => text(`updates[${i}].product_id`, row.productId),
      () => stockCount(`updates[${i}].stock`, row.stock),
    );
    if (found !== undefined) return found;
  }
  return undefined;
}

function paging(page: number | undefined, limit: number | undefined): Check {
  if (page !== undefined && !(Number.isSafeInteger(page) && page >= 1)) return invalidInput('page must be an integer of at least 1', 'page');
  if (limit !== undefined && !(Number.isSafeInteger(limit) && limit >= 1 && limit <= CATALOG_MAX_LIMIT)) {
    return invalidInput(`limit must be an integer from 1 to ${CATALOG_MAX_LIMIT}`, 'limit');
  }
  return undefined;
}

function priceBound(field: string, value: Decimal | undefined): Check {
  return value === undefined || (value.isFinite() && value.gte(0)) ? undefined : invalidInput(`${field} must be a non-negative number`, field);
}

export function checkProductQuery(q: ProductListQuery): Check {
  return first(
    () => paging(q.page, q.limit),
    () => oneOf('status', q.status, PRODUCT_STATUSES),
    () => priceBound('min_price', q.minPrice),
    () => priceBound('max_price', q.maxPrice),
    () => (q.minPrice !== undefined && q.maxPrice !== undefined && q.minPrice.gt(q.maxPrice) ? invalidInput('min_price must not exceed max_price', 'min_price') : undefined),
  );
}

export function checkUserQuery(q: UserListQuery): Check {
  return first(
    () => paging(q.page, q.limit),
    () => oneOf('role', q.role, USER_ROLES),
    () => oneOf('status', q.status, USER_STATUSES),
  );
}
