import { Subject } from 'rxjs';
import { orderedParams } from '../core/ordered-params.js';
import type { Result } from '../core/result.js';
import { err, ok } from '../core/result.js';
import { createGotHttp } from '../venue/got-http.js';
import type { HttpPort } from '../venue/http-port.js';
import type { VenueError } from '../venue/venue-error.js';
import type { SkippedRows } from '../venue/wire/tolerant-list.js';
import type { CatalogEndpoint } from './endpoints.js';
import { CATALOG_ENDPOINTS as EP } from './endpoints.js';
import type { CatalogPage } from './pages.js';
import { walkPages } from './pages.js';
import type { Product, ProductChanges, User } from './schemas.js';
import { bulkStockSchema, listEnvelope, noDataEnvelope, productChangesSchema, productSchema, singleEnvelope, userSchema } from './schemas.js';
import { CatalogTransport } from './transport.js';
import { CATALOG_MAX_LIMIT } from '../protocol/catalog/types.js';
import type { ProductCreate, ProductFilter, ProductPatch, ProductQuery, StockUpdate, UserCreate, UserFilter, UserPatch, UserQuery } from '../protocol/catalog/types.js';
import {
  checkProductCreate,
  checkProductPatch,
  checkProductQuery,
  checkStockUpdates,
  checkUserCreate,
  checkUserPatch,
  checkUserQuery,
  validId,
} from './validate.js';

export interface CatalogClientOptions {
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer <token>`. */
  readonly token: string;
  /** Defaults to the got adapter. */
  readonly http?: HttpPort;
  /** Per request; default 10 s. */
  readonly timeoutMs?: number;
}

/** A created or updated record with the server's message. */
export interface Saved<T> {
  readonly record: T;
  readonly message?: string;
}

/** Outcome of a permanent delete. */
export interface Deleted {
  readonly message: string;
}

export interface BulkStockResult {
  readonly updated: number;
  readonly failed: number;
  readonly message?: string;
}

type Reply<T> = Promise<Result<T, VenueError>>;

const productList = listEnvelope(productSchema);
const productSingle = singleEnvelope(productSchema);
const productChangesSingle = singleEnvelope(productChangesSchema);
const userList = listEnvelope(userSchema);
const userSingle = singleEnvelope(userSchema);
const bulkSingle = singleEnvelope(bulkStockSchema);

/**
 * Client of the product/user catalog API (spec 002). Every method validates its input locally
 * (`invalid-request`, nothing sent) and returns a Result; failures are VenueError values with the
 * service's string error.code in `code` and error.field in `field`. Only the `all*` walkers throw
 * (see walkPages). Note: GET /v1/products lists only active products unless `status` is given.
 */
export class CatalogClient {
  /** Records of list replies that lacked what stratd needs and were skipped, one value per reply. */
  readonly skippedRows$ = new Subject<SkippedRows>();
  private readonly transport: CatalogTransport;

  constructor(options: CatalogClientOptions) {
    this.transport = new CatalogTransport(options.http ?? createGotHttp(), {
      baseUrl: options.baseUrl,
      token: options.token,
      timeoutMs: options.timeoutMs ?? 10_000,
      onSkipped: (skipped) => this.skippedRows$.next(skipped),
    });
  }

  // ---- products

  async listProducts(query: ProductQuery = {}): Reply<CatalogPage<Product>> {
    const bad = checkProductQuery(EP.listProducts.label, query);
    if (bad !== undefined) return err(bad);
    const { page, limit, category, status, min_price, max_price, search } = query;
    const params = orderedParams({ page, limit, category, status, min_price, max_price, search });
    return asPage(await this.transport.call(EP.listProducts, { query: params }, productList));
  }

  async getProduct(id: string): Reply<Product> {
    return this.withId(EP.getProduct, 'product_id', id, async (pathParams) => data(await this.transport.call(EP.getProduct, { pathParams }, productSingle)));
  }

  async createProduct(input: ProductCreate): Reply<Saved<Product>> {
    const bad = checkProductCreate(EP.createProduct.label, input);
    if (bad !== undefined) return err(bad);
    const { name, description, sku, price, currency, stock, category, status } = input;
    const body = { name, description, sku, price, currency, stock, category, status };
    return saved(await this.transport.call(EP.createProduct, { body }, productSingle));
  }

  async updateProduct(id: string, patch: ProductPatch): Reply<Saved<ProductChanges>> {
    const bad = checkProductPatch(EP.updateProduct.label, patch);
    if (bad !== undefined) return err(bad);
    const { name, description, sku, price, currency, stock, category, images, status } = patch;
    const body = { name, description, sku, price, currency, stock, category, images, status };
    return this.withId(EP.updateProduct, 'product_id', id, async (pathParams) => saved(await this.transport.call(EP.updateProduct, { pathParams, body }, productChangesSingle)));
  }

  async deleteProduct(id: string): Reply<Deleted> {
    return this.withId(EP.deleteProduct, 'product_id', id, async (pathParams) => deleted(await this.transport.call(EP.deleteProduct, { pathParams }, noDataEnvelope)));
  }

  async bulkUpdateStock(updates: readonly StockUpdate[]): Reply<BulkStockResult> {
    const bad = checkStockUpdates(EP.bulkUpdateStock.label, updates);
    if (bad !== undefined) return err(bad);
    const body = { updates: updates.map(({ product_id, stock }) => ({ product_id, stock })) };
    const reply = await this.transport.call(EP.bulkUpdateStock, { body }, bulkSingle);
    if (!reply.ok) return reply;
    const { data: counts, message } = reply.value;
    return ok({ updated: counts.updated, failed: counts.failed, ...(message === undefined ? {} : { message }) });
  }

  /** Every product matching `filter`, 100 per page unless `filter.limit` says otherwise. Throws VenueError (see walkPages). */
  allProducts(filter: ProductFilter = {}): AsyncGenerator<Product, void, undefined> {
    return walkPages((page) => this.listProducts({ ...filter, limit: filter.limit ?? CATALOG_MAX_LIMIT, page }));
  }

  // ---- users

  async listUsers(query: UserQuery = {}): Reply<CatalogPage<User>> {
    const bad = checkUserQuery(EP.listUsers.label, query);
    if (bad !== undefined) return err(bad);
    const { page, limit, role, status, search } = query;
    return asPage(await this.transport.call(EP.listUsers, { query: orderedParams({ page, limit, role, status, search }) }, userList));
  }

  async getUser(id: string): Reply<User> {
    return this.withId(EP.getUser, 'user_id', id, async (pathParams) => data(await this.transport.call(EP.getUser, { pathParams }, userSingle)));
  }

  async createUser(input: UserCreate): Reply<Saved<User>> {
    const bad = checkUserCreate(EP.createUser.label, input);
    if (bad !== undefined) return err(bad);
    const { name, email, role, password } = input;
    return saved(await this.transport.call(EP.createUser, { body: { name, email, role, password } }, userSingle));
  }

  async updateUser(id: string, patch: UserPatch): Reply<Saved<User>> {
    const bad = checkUserPatch(EP.updateUser.label, patch);
    if (bad !== undefined) return err(bad);
    const { name, email, role, status, avatar } = patch;
    const body = { name, email, role, status, avatar };
    return this.withId(EP.updateUser, 'user_id', id, async (pathParams) => saved(await this.transport.call(EP.updateUser, { pathParams, body }, userSingle)));
  }

  async deleteUser(id: string): Reply<Deleted> {
    return this.withId(EP.deleteUser, 'user_id', id, async (pathParams) => deleted(await this.transport.call(EP.deleteUser, { pathParams }, noDataEnvelope)));
  }

  /** Every user matching `filter`, 100 per page unless `filter.limit` says otherwise. Throws VenueError (see walkPages). */
  allUsers(filter: UserFilter = {}): AsyncGenerator<User, void, undefined> {
    return walkPages((page) => this.listUsers({ ...filter, limit: filter.limit ?? CATALOG_MAX_LIMIT, page }));
  }

  /** Checks the path id, then sends with it as the `{name}` path parameter. */
  private async withId<T>(endpoint: CatalogEndpoint, name: string, id: string, send: (pathParams: Readonly<Record<string, string>>) => Reply<T>): Reply<T> {
    const bad = validId(endpoint.label, name, id);
    if (bad !== undefined) return err(bad);
    return send({ [name]: id });
  }
}

function asPage<T>(reply: Result<{ readonly data: T[]; readonly pagination: CatalogPage<T>['pagination'] }, VenueError>): Result<CatalogPage<T>, VenueError> {
  return reply.ok ? ok({ items: reply.value.data, pagination: reply.value.pagination }) : reply;
}

function data<T>(reply: Result<{ readonly data: T }, VenueError>): Result<T, VenueError> {
  return reply.ok ? ok(reply.value.data) : reply;
}

function saved<T>(reply: Result<{ readonly data: T; readonly message?: string | undefined }, VenueError>): Result<Saved<T>, VenueError> {
  if (!reply.ok) return reply;
  const { data: record, message } = reply.value;
  return ok(message === undefined ? { record } : { record, message });
}

function deleted(reply: Result<{ readonly message: string }, VenueError>): Result<Deleted, VenueError> {
  return reply.ok ? ok({ message: reply.value.message }) : reply;
}
