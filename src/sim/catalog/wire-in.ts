import { LosslessNumber } from 'lossless-json';
import type { Decimal } from '../../core/decimal.js';
import { parseDecimal } from '../../core/decimal.js';
import { err, ok } from '../../core/result.js';
import { parseCatalogJson } from '../../protocol/catalog/json.js';
import { PRODUCT_STATUSES, USER_ROLES, USER_STATUSES } from '../../protocol/catalog/types.js';
import type { CatalogResult } from './failure.js';
import { invalidInput } from './failure.js';
import type { ProductChanges, ProductDraft, ProductListQuery, StockRow, UserChanges, UserDraft, UserListQuery } from './records.js';

/**
 * Request decoding: JSON bodies and query strings into the catalog's typed inputs. Checks presence,
 * JSON types and enum values (400 invalid_request naming the field); value rules are the state's.
 * Unknown body members (including read-only id, created_at, updated_at) are ignored.
 */

type Body = Readonly<Record<string, unknown>>;
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A request body: a JSON object. Numbers a double cannot hold exactly stay exact (LosslessNumber). */
export function parseBody(text: string): CatalogResult<Body> {
  let value: unknown;
  try {
    value = parseCatalogJson(text);
  } catch {
    return err(invalidInput('the request body is not valid JSON'));
  }
  return isObject(value) ? ok(value) : err(invalidInput('the request body must be a JSON object'));
}

function isObject(value: unknown): value is Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads one optional member; `undefined` value means absent, a failure means present but wrong. */
type Reader<T> = (body: Body, field: string, path?: string) => CatalogResult<T | undefined>;

const text: Reader<string> = (body, field, path = field) => {
  const v = body[field];
  if (v === undefined) return ok(undefined);
  return typeof v === 'string' ? ok(v) : err(invalidInput(`${path} must be a string`, path));
};

/** A JSON number, kept exact. */
const decimal: Reader<Decimal> = (body, field, path = field) => {
  const v = body[field];
  if (v === undefined) return ok(undefined);
  const parsed = typeof v === 'number' ? parseDecimal(String(v)) : v instanceof LosslessNumber ? parseDecimal(v.value) : undefined;
  return parsed === undefined ? err(invalidInput(`${path} must be a number`, path)) : ok(parsed);
};

/** A JSON number a double holds; whether it is a whole number is a value rule. */
const num: Reader<number> = (body, field, path = field) => {
  const v = body[field];
  if (v === undefined) return ok(undefined);
  if (typeof v === 'number') return ok(v);
  return err(invalidInput(v instanceof LosslessNumber ? `${path} is out of range` : `${path} must be an integer`, path));
};

const texts: Reader<readonly string[]> = (body, field, path = field) => {
  const v = body[field];
  if (v === undefined) return ok(undefined);
  if (!Array.isArray(v)) return err(invalidInput(`${path} must be an array of strings`, path));
  const bad = v.findIndex((item) => typeof item !== 'string');
  return bad < 0 ? ok(v.map(String)) : err(invalidInput(`${path}[${bad}] must be a string`, `${path}[${bad}]`));
};

function oneOf<T extends string>(allowed: readonly T[]): Reader<T> {
  return (body, field, path = field) => {
    const v = body[field];
    if (v === undefined) return ok(undefined);
    const found = allowed.find((a) => a === v);
    return found === undefined ? err(invalidInput(`${path} must be one of ${allowed.join(', ')}`, path)) : ok(found);
  };
}

/**
 * Reads each listed member with its reader into an object holding only the members present.
 * The first wrong member (in list order) is the failure.
 */
function readFields<T extends object>(body: Body, readers: { readonly [K in keyof T]-?: Reader<NonNullable<T[K]>> }): CatalogResult<Partial<T>> {
  const out: Partial<Mutable<T>> = {};
  for (const key of Object.keys(readers) as (keyof T & string)[]) {
    const read = readers[key](body, key);
    if (!read.ok) return read;
    if (read.value !== undefined) out[key] = read.value;
  }
  return ok(out);
}

function missing(field: string): CatalogResult<never> {
  return err(invalidInput(`${field} is required`, field));
}

const productReaders = {
  name: text,
  description: text,
  sku: text,
  price: decimal,
  currency: text,
  stock: num,
  category: text,
  images: texts,
  status: oneOf(PRODUCT_STATUSES),
} as const;

export function decodeProductDraft(body: Body): CatalogResult<ProductDraft> {
  const read = readFields<ProductDraft>(body, productReaders);
  if (!read.ok) return read;
  const { name, sku, price, ...rest } = read.value;
  if (name === undefined) return missing('name');
  if (sku === undefined) return missing('sku');
  if (price === undefined) return missing('price');
  return ok({ name, sku, price, ...rest });
}

export function decodeProductChanges(body: Body): CatalogResult<ProductChanges> {
  return readFields<ProductChanges>(body, productReaders);
}

export function decodeUserDraft(body: Body): CatalogResult<UserDraft> {
  const read = readFields<UserDraft>(body, { name: text, email: text, role: oneOf(USER_ROLES), password: text, avatar: text });
  if (!read.ok) return read;
  const { name, email, role, password, ...rest } = read.value;
  if (name === undefined) return missing('name');
  if (email === undefined) return missing('email');
  if (role === undefined) return missing('role');
  if (password === undefined) return missing('password');
  return ok({ name, email, role, password, ...rest });
}

export function decodeUserChanges(body: Body): CatalogResult<UserChanges> {
  return readFields<UserChanges>(body, { name: text, email: text, role: oneOf(USER_ROLES), status: oneOf(USER_STATUSES), avatar: text });
}

/** `{updates: [{product_id, stock}]}` */
export function decodeStockRows(body: Body): CatalogResult<readonly StockRow[]> {
  const updates = body['updates'];
  if (!Array.isArray(updates)) return err(invalidInput('updates must be an array', 'updates'));
  const rows: StockRow[] = [];
  for (const [i, item] of updates.entries()) {
    const at = `updates[${i}]`;
    if (!isObject(item)) return err(invalidInput(`${at} must be an object`, at));
    const productId = text(item, 'product_id', `${at}.product_id`);
    if (!productId.ok) return productId;
    const stock = num(item, 'stock', `${at}.stock`);
    if (!stock.ok) return stock;
    if (productId.value === undefined) return err(invalidInput(`${at}.product_id is required`, `${at}.product_id`));
    if (stock.value === undefined) return err(invalidInput(`${at}.stock is required`, `${at}.stock`));
    rows.push({ productId: productId.value, stock: stock.value });
  }
  return ok(rows);
}

// ---- query strings (an empty value counts as absent)

function param(query: URLSearchParams, name: string): string | undefined {
  const v = query.get(name);
  return v === null || v === '' ? undefined : v;
}

function intParam(query: URLSearchParams, name: string): CatalogResult<number | undefined> {
  const v = param(query, name);
  if (v === undefined) return ok(undefined);
  return /^\d+$/.test(v) ? ok(Number(v)) : err(invalidInput(`${name} must be an integer`, name));
}

function decimalParam(query: URLSearchParams, name: string): CatalogResult<Decimal | undefined> {
  const v = param(query, name);
  if (v === undefined) return ok(undefined);
  const parsed = parseDecimal(v);
  return parsed === undefined ? err(invalidInput(`${name} must be a number`, name)) : ok(parsed);
}

function enumParam<T extends string>(query: URLSearchParams, name: string, allowed: readonly T[]): CatalogResult<T | undefined> {
  const v = param(query, name);
  if (v === undefined) return ok(undefined);
  const found = allowed.find((a) => a === v);
  return found === undefined ? err(invalidInput(`${name} must be one of ${allowed.join(', ')}`, name)) : ok(found);
}

/** Drops absent members so the result satisfies exact optional properties. */
function present<T extends object>(fields: { readonly [K in keyof T]-?: T[K] | undefined }): Partial<T> {
  const out: Partial<Mutable<T>> = {};
  for (const key of Object.keys(fields) as (keyof T)[]) {
    const v = fields[key];
    if (v !== undefined) out[key] = v;
  }
  return out;
}

export function decodeProductQuery(query: URLSearchParams): CatalogResult<ProductListQuery> {
  const page = intParam(query, 'page');
  if (!page.ok) return page;
  const limit = intParam(query, 'limit');
  if (!limit.ok) return limit;
  const status = enumParam(query, 'status', PRODUCT_STATUSES);
  if (!status.ok) return status;
  const minPrice = decimalParam(query, 'min_price');
  if (!minPrice.ok) return minPrice;
  const maxPrice = decimalParam(query, 'max_price');
  if (!maxPrice.ok) return maxPrice;
  return ok(
    present<ProductListQuery>({
      page: page.value, limit: limit.value, category: param(query, 'category'), status: status.value,
      minPrice: minPrice.value, maxPrice: maxPrice.value, search: param(query, 'search'),
    }),
  );
}

export function decodeUserQuery(query: URLSearchParams): CatalogResult<UserListQuery> {
  const page = intParam(query, 'page');
  if (!page.ok) return page;
  const limit = intParam(query, 'limit');
  if (!limit.ok) return limit;
  const role = enumParam(query, 'role', USER_ROLES);
  if (!role.ok) return role;
  const status = enumParam(query, 'status', USER_STATUSES);
  if (!status.ok) return status;
  return ok(present<UserListQuery>({ page: page.value, limit: limit.value, role: role.value, status: status.value, search: param(query, 'search') }));
}
