import type { Clock } from '../../core/clock.js';
import { InvariantError } from '../../core/errors.js';
import { err, ok } from '../../core/result.js';
import type { CatalogPage } from '../../catalog/pages.js';
import type { CatalogFailure, CatalogResult } from './failure.js';
import { duplicateEmail, duplicateSku, notFound } from './failure.js';
import { paginate } from './paging.js';
import type {
  BulkStockOutcome,
  CatalogProduct,
  CatalogUser,
  ProductChanges,
  ProductDraft,
  ProductListQuery,
  StockRow,
  UserChanges,
  UserDraft,
  UserListQuery,
} from './records.js';
import { CATALOG_DEFAULT_LIMIT, PRODUCT_DEFAULTS } from './records.js';
import { checkProductChanges, checkProductDraft, checkProductQuery, checkStockRows, checkUserChanges, checkUserDraft, checkUserFields, checkUserQuery } from './rules.js';
import type { CatalogSeed, SeedUser } from './seed.js';
import { SAMPLE_CATALOG_SEED } from './seed.js';

export interface SimCatalogOptions {
  readonly clock: Clock;
  /** Records to start with; SAMPLE_CATALOG_SEED by default. */
  readonly seed?: CatalogSeed;
}

const DAY_MS = 86_400_000;

/**
 * The simulated catalog service (spec 002): products and users in memory. Ids are counter-based
 * ("prd_000001", "usr_000001") and never reused, times come from the injected clock, so a run is
 * reproducible. Lists are in creation (id) order. Expected failures are CatalogFailure values.
 */
export class SimCatalog {
  private readonly clock: Clock;
  private readonly products = new Map<string, CatalogProduct>();
  private readonly users = new Map<string, CatalogUser>();
  private productSeq = 0;
  private userSeq = 0;

  constructor(options: SimCatalogOptions) {
    this.clock = options.clock;
    const seed = options.seed ?? SAMPLE_CATALOG_SEED;
    const now = this.clock.now();
    for (const { ageDays, ...draft } of seed.products) this.seedProduct(draft, now - ageDays * DAY_MS);
    for (const user of seed.users) this.seedUser(user, now - user.ageDays * DAY_MS);
  }

  // ---- products

  listProducts(query: ProductListQuery = {}): CatalogResult<CatalogPage<CatalogProduct>> {
    const bad = checkProductQuery(query);
    if (bad !== undefined) return err(bad);
    const status = query.status ?? 'active';
    const needle = query.search?.trim().toLowerCase() ?? '';
    const rows = [...this.products.values()].filter(
      (p) =>
        p.status === status &&
        (query.category === undefined || p.category === query.category) &&
        (query.minPrice === undefined || p.price.gte(query.minPrice)) &&
        (query.maxPrice === undefined || p.price.lte(query.maxPrice)) &&
        (needle === '' || p.name.toLowerCase().includes(needle) || p.sku.toLowerCase().includes(needle)),
    );
    return ok(paginate(rows, query.page ?? 1, query.limit ?? CATALOG_DEFAULT_LIMIT));
  }

  getProduct(id: string): CatalogResult<CatalogProduct> {
    const product = this.products.get(id);
    return product === undefined ? err(notFound('Product', id)) : ok(product);
  }

  createProduct(draft: ProductDraft): CatalogResult<CatalogProduct> {
    const bad = checkProductDraft(draft) ?? this.skuTaken(draft.sku);
    if (bad !== undefined) return err(bad);
    return ok(this.insertProduct(draft, this.clock.now()));
  }

  /** Applies the changes; the reply is the whole updated record. */
  updateProduct(id: string, changes: ProductChanges): CatalogResult<CatalogProduct> {
    const current = this.products.get(id);
    if (current === undefined) return err(notFound('Product', id));
    const bad = checkProductChanges(changes) ?? (changes.sku === undefined ? undefined : this.skuTaken(changes.sku, id));
    if (bad !== undefined) return err(bad);
    const updated: CatalogProduct = { ...current, ...changes, updatedAt: this.clock.now() };
    this.products.set(id, updated);
    return ok(updated);
  }

  /** Permanent: the id answers not_found afterwards and is never given out again. */
  deleteProduct(id: string): CatalogResult<CatalogProduct> {
    const product = this.products.get(id);
    if (product === undefined) return err(notFound('Product', id));
    this.products.delete(id);
    return ok(product);
  }

  /**
   * Sets each row's stock, in order. A malformed row rejects the whole request before anything
   * changes; a row naming no product counts as failed and the others still apply.
   */
  bulkUpdateStock(rows: readonly StockRow[]): CatalogResult<BulkStockOutcome> {
    const bad = checkStockRows(rows);
    if (bad !== undefined) return err(bad);
    const now = this.clock.now();
    let updated = 0;
    for (const { productId, stock } of rows) {
      const current = this.products.get(productId);
      if (current === undefined) continue;
      this.products.set(productId, { ...current, stock, updatedAt: now });
      updated += 1;
    }
    return ok({ updated, failed: rows.length - updated });
  }

  // ---- users

  listUsers(query: UserListQuery = {}): CatalogResult<CatalogPage<CatalogUser>> {
    const bad = checkUserQuery(query);
    if (bad !== undefined) return err(bad);
    const needle = query.search?.trim().toLowerCase() ?? '';
    const rows = [...this.users.values()].filter(
      (u) =>
        (query.role === undefined || u.role === query.role) &&
        (query.status === undefined || u.status === query.status) &&
        (needle === '' || u.name.toLowerCase().includes(needle) || u.email.toLowerCase().includes(needle)),
    );
    return ok(paginate(rows, query.page ?? 1, query.limit ?? CATALOG_DEFAULT_LIMIT));
  }

  getUser(id: string): CatalogResult<CatalogUser> {
    const user = this.users.get(id);
    return user === undefined ? err(notFound('User', id)) : ok(user);
  }

  /** A new user is active. The password is checked and then dropped: it is write-only. */
  createUser(draft: UserDraft): CatalogResult<CatalogUser> {
    const bad = checkUserDraft(draft) ?? this.emailTaken(draft.email);
    if (bad !== undefined) return err(bad);
    const { name, email, role, avatar } = draft;
    return ok(this.insertUser({ name, email, role, status: 'active', ...(avatar === undefined ? {} : { avatar }) }, this.clock.now()));
  }

  updateUser(id: string, changes: UserChanges): CatalogResult<CatalogUser> {
    const current = this.users.get(id);
    if (current === undefined) return err(notFound('User', id));
    const bad = checkUserChanges(changes) ?? (changes.email === undefined ? undefined : this.emailTaken(changes.email, id));
    if (bad !== undefined) return err(bad);
    const { avatar, ...rest } = changes;
    const { avatar: oldAvatar, ...base } = current;
    const nextAvatar = avatar ?? oldAvatar;
    const updated: CatalogUser = { ...base, ...rest, ...(nextAvatar === undefined || nextAvatar === '' ? {} : { avatar: nextAvatar }), updatedAt: this.clock.now() };
    this.users.set(id, updated);
    return ok(updated);
  }

  deleteUser(id: string): CatalogResult<CatalogUser> {
    const user = this.users.get(id);
    if (user === undefined) return err(notFound('User', id));
    this.users.delete(id);
    return ok(user);
  }

  // ---- internals

  private skuTaken(sku: string, exceptId?: string): CatalogFailure | undefined {
    for (const p of this.products.values()) if (p.sku === sku && p.id !== exceptId) return duplicateSku(sku);
    return undefined;
  }

  /** Emails compare case-insensitively. */
  private emailTaken(email: string, exceptId?: string): CatalogFailure | undefined {
    const wanted = email.toLowerCase();
    for (const u of this.users.values()) if (u.email.toLowerCase() === wanted && u.id !== exceptId) return duplicateEmail(email);
    return undefined;
  }

  private insertProduct(draft: ProductDraft, at: number): CatalogProduct {
    this.productSeq += 1;
    const id = `prd_${String(this.productSeq).padStart(6, '0')}`;
    const product: CatalogProduct = { id, ...PRODUCT_DEFAULTS, ...draft, createdAt: at, updatedAt: at };
    this.products.set(id, product);
    return product;
  }

  private insertUser(fields: Omit<CatalogUser, 'id' | 'createdAt' | 'updatedAt'>, at: number): CatalogUser {
    this.userSeq += 1;
    const id = `usr_${String(this.userSeq).padStart(6, '0')}`;
    const user: CatalogUser = { id, ...fields, createdAt: at, updatedAt: at };
    this.users.set(id, user);
    return user;
  }

  /** A seed that breaks a rule is a bug in the seed, not an expected outcome. */
  private seedProduct(draft: ProductDraft, at: number): void {
    const bad = checkProductDraft(draft) ?? this.skuTaken(draft.sku);
    if (bad !== undefined) throw new InvariantError('CATALOG_SEED', `product ${draft.sku}: ${bad.message}`);
    this.insertProduct(draft, at);
  }

  private seedUser(seed: SeedUser, at: number): void {
    const { ageDays: _ageDays, ...fields } = seed;
    const bad = checkUserFields(fields) ?? this.emailTaken(fields.email);
    if (bad !== undefined) throw new InvariantError('CATALOG_SEED', `user ${fields.email}: ${bad.message}`);
    this.insertUser(fields, at);
  }
}
