import { dec } from '../../../src/core/decimal.js';
import { InvariantError } from '../../../src/core/errors.js';
import { VirtualClock } from '../../../src/core/virtual-time.js';
import type { ProductStatus, UserRole } from '../../../src/protocol/catalog/types.js';
import type { CatalogFailure, CatalogResult } from '../../../src/sim/catalog/index.js';
import { EMPTY_CATALOG_SEED, SAMPLE_CATALOG_SEED, SimCatalog } from '../../../src/sim/catalog/index.js';

const START = 1_767_225_600_000; // 2026-01-01T00:00:00Z
const DAY = 86_400_000;

function value<T>(result: CatalogResult<T>): T {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.error)}`);
  return result.value;
}

function failure<T>(result: CatalogResult<T>): CatalogFailure {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result.error;
}

let clock: VirtualClock;
let catalog: SimCatalog;

beforeEach(() => {
  clock = new VirtualClock(START);
  catalog = new SimCatalog({ clock });
});

const ids = (rows: readonly { id: string }[]): string[] => rows.map((r) => r.id);

describe('seed', () => {
  it('loads the sample records in order with counter ids and times relative to the clock', () => {
    const all = ['active', 'draft', 'archived'].flatMap((status) => value(catalog.listProducts({ status: status as ProductStatus })).items);
    expect(all).toHaveLength(SAMPLE_CATALOG_SEED.products.length);
    const chair = value(catalog.getProduct('prd_000001'));
    expect(chair).toMatchObject({ sku: 'FURN-CHAIR-001', category: 'furniture', status: 'active', stock: 42, createdAt: START - 120 * DAY, updatedAt: START - 120 * DAY });
    expect(chair.price.toString()).toBe('249.99');
    expect(value(catalog.getProduct('prd_000007')).sku).toBe('ACC-CBL-007');
    expect(ids(value(catalog.listUsers()).items)).toEqual(['usr_000001', 'usr_000002', 'usr_000003', 'usr_000004', 'usr_000005', 'usr_000006']);
    expect(value(catalog.getUser('usr_000003')).avatar).toBeUndefined();
  });

  it('can start empty, and a seed that breaks a rule is a bug', () => {
    const empty = new SimCatalog({ clock, seed: EMPTY_CATALOG_SEED });
    expect(value(empty.listProducts()).pagination).toEqual({ page: 1, limit: 20, total: 0, pages: 0 });
    expect(value(empty.listUsers()).items).toEqual([]);
    const bad = { products: [{ name: 'Free', sku: 'F-1', price: dec(0), ageDays: 0 }], users: [] };
    expect(() => new SimCatalog({ clock, seed: bad })).toThrow(InvariantError);
    const twice = { products: [], users: [SAMPLE_CATALOG_SEED.users[0]!, { ...SAMPLE_CATALOG_SEED.users[0]!, email: 'ALICE.NGUYEN@example.com' }] };
    expect(() => new SimCatalog({ clock, seed: twice })).toThrow(/already exists/);
  });

  it('is reproducible: same seed and clock, same records', () => {
    const other = new SimCatalog({ clock: new VirtualClock(START) });
    expect(value(other.listProducts({ limit: 100 }))).toEqual(value(catalog.listProducts({ limit: 100 })));
    expect(value(other.createUser({ name: 'N', email: 'n@x.io', role: 'user', password: 'p' }))).toEqual(value(catalog.createUser({ name: 'N', email: 'n@x.io', role: 'user', password: 'p' })));
  });
});

describe('product lists', () => {
  it('defaults to active products, page 1, limit 20', () => {
    const page = value(catalog.listProducts());
    expect(ids(page.items)).toEqual(['prd_000001', 'prd_000002', 'prd_000003', 'prd_000006']);
    expect(page.pagination).toEqual({ page: 1, limit: 20, total: 4, pages: 1 });
  });

  it('filters by status, category, inclusive price bounds and search on name or SKU (case-insensitive)', () => {
    expect(ids(value(catalog.listProducts({ status: 'draft' })).items)).toEqual(['prd_000004', 'prd_000007']);
    expect(ids(value(catalog.listProducts({ status: 'archived' })).items)).toEqual(['prd_000005']);
    expect(ids(value(catalog.listProducts({ category: 'electronics' })).items)).toEqual(['prd_000003']);
    expect(ids(value(catalog.listProducts({ category: 'electronics', status: 'draft' })).items)).toEqual(['prd_000004']);
    expect(ids(value(catalog.listProducts({ category: 'Electronics' })).items)).toEqual([]);
    expect(ids(value(catalog.listProducts({ minPrice: dec('129.5'), maxPrice: dec('249.99') })).items)).toEqual(['prd_000001', 'prd_000003']);
    expect(ids(value(catalog.listProducts({ minPrice: dec(300) })).items)).toEqual(['prd_000002']);
    expect(ids(value(catalog.listProducts({ maxPrice: dec('34.9') })).items)).toEqual(['prd_000006']);
    expect(ids(value(catalog.listProducts({ search: 'DESK' })).items)).toEqual(['prd_000002']);
    expect(ids(value(catalog.listProducts({ search: 'elec-kb' })).items)).toEqual(['prd_000003']);
    expect(ids(value(catalog.listProducts({ search: 'cable', status: 'draft', category: 'accessories', maxPrice: dec(20) })).items)).toEqual(['prd_000007']);
  });

  it('pages: partial last page, a page past the end is empty', () => {
    expect(value(catalog.listProducts({ limit: 3, page: 2 }))).toMatchObject({ pagination: { page: 2, limit: 3, total: 4, pages: 2 } });
    expect(ids(value(catalog.listProducts({ limit: 3, page: 2 })).items)).toEqual(['prd_000006']);
    expect(value(catalog.listProducts({ limit: 3, page: 9 }))).toEqual({ items: [], pagination: { page: 9, limit: 3, total: 4, pages: 2 } });
    expect(value(catalog.listProducts({ limit: 100 })).pagination.limit).toBe(100);
  });

  it.each([
    [{ page: 0 }, 'page'],
    [{ page: 1.5 }, 'page'],
    [{ limit: 0 }, 'limit'],
    [{ limit: 101 }, 'limit'],
    [{ status: 'deleted' as ProductStatus }, 'status'],
    [{ minPrice: dec(-1) }, 'min_price'],
    [{ maxPrice: dec(-1) }, 'max_price'],
    [{ minPrice: dec(10), maxPrice: dec(5) }, 'min_price'],
  ])('rejects %o naming %s', (query, field) => {
    expect(failure(catalog.listProducts(query))).toMatchObject({ status: 400, code: 'invalid_request', field });
  });
});

describe('product writes', () => {
  it('creates with defaults, clock timestamps and the next id', () => {
    clock.advanceBy(5_000);
    const p = value(catalog.createProduct({ name: 'Monitor Arm', sku: 'FURN-ARM-008', price: dec('79.00') }));
    expect(p).toMatchObject({ id: 'prd_000008', description: '', currency: 'USD', stock: 0, category: 'uncategorized', images: [], status: 'active', createdAt: START + 5_000, updatedAt: START + 5_000 });
    expect(value(catalog.getProduct('prd_000008'))).toEqual(p);
  });

  it.each([
    [{ price: dec(0) }, 'price'],
    [{ price: dec('-0.01') }, 'price'],
    [{ name: '  ' }, 'name'],
    [{ sku: '' }, 'sku'],
    [{ stock: -1 }, 'stock'],
    [{ stock: 2.5 }, 'stock'],
    [{ currency: 'usd' }, 'currency'],
    [{ status: 'live' as ProductStatus }, 'status'],
  ])('rejects a create with %o naming %s', (bad, field) => {
    const result = catalog.createProduct({ name: 'Lamp', sku: 'LAMP-1', price: dec(10), ...bad });
    expect(failure(result)).toMatchObject({ status: 400, code: 'invalid_request', field });
    expect(value(catalog.listProducts({ search: 'LAMP' })).items).toEqual([]);
  });

  it('409 duplicate_sku on create and on update to another product\'s SKU; keeping its own SKU is fine', () => {
    expect(failure(catalog.createProduct({ name: 'Copy', sku: 'FURN-CHAIR-001', price: dec(1) }))).toMatchObject({ status: 409, code: 'duplicate_sku', field: 'sku' });
    expect(failure(catalog.updateProduct('prd_000002', { sku: 'FURN-CHAIR-001' }))).toMatchObject({ status: 409, code: 'duplicate_sku' });
    expect(value(catalog.updateProduct('prd_000001', { sku: 'FURN-CHAIR-001', stock: 41 })).stock).toBe(41);
  });

  it('updates only the given fields and moves updatedAt', () => {
    clock.advanceBy(60_000);
    const p = value(catalog.updateProduct('prd_000003', { price: dec('119.99'), status: 'archived', images: [] }));
    expect(p).toMatchObject({ name: 'Wireless Mechanical Keyboard', stock: 80, status: 'archived', images: [], createdAt: START - 60 * DAY, updatedAt: START + 60_000 });
    expect(p.price.toString()).toBe('119.99');
    expect(failure(catalog.updateProduct('prd_000003', {}))).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(failure(catalog.updateProduct('prd_000003', { price: dec(0) }))).toMatchObject({ status: 400, field: 'price' });
    expect(failure(catalog.updateProduct('prd_999999', { stock: 1 }))).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('deletes permanently; the id is never given out again', () => {
    value(catalog.deleteProduct('prd_000007'));
    expect(failure(catalog.getProduct('prd_000007'))).toMatchObject({ status: 404, code: 'not_found' });
    expect(failure(catalog.deleteProduct('prd_000007')).status).toBe(404);
    expect(value(catalog.createProduct({ name: 'Kit', sku: 'ACC-CBL-007', price: dec(1) })).id).toBe('prd_000008');
  });

  it('bulk stock: rows naming no product fail, the others apply in order', () => {
    clock.advanceBy(1_000);
    const rows = [{ productId: 'prd_000001', stock: 5 }, { productId: 'nope', stock: 1 }, { productId: 'prd_000004', stock: 0 }, { productId: 'prd_000001', stock: 7 }];
    expect(value(catalog.bulkUpdateStock(rows))).toEqual({ updated: 3, failed: 1 });
    expect(value(catalog.getProduct('prd_000001'))).toMatchObject({ stock: 7, updatedAt: START + 1_000 });
    expect(value(catalog.getProduct('prd_000004')).stock).toBe(0);
  });

  it('bulk stock: a malformed row rejects the whole request and changes nothing', () => {
    expect(failure(catalog.bulkUpdateStock([]))).toMatchObject({ status: 400, field: 'updates' });
    const bad = catalog.bulkUpdateStock([{ productId: 'prd_000001', stock: 1 }, { productId: 'prd_000002', stock: -3 }]);
    expect(failure(bad)).toMatchObject({ status: 400, field: 'updates[1].stock' });
    expect(failure(catalog.bulkUpdateStock([{ productId: ' ', stock: 1 }]))).toMatchObject({ field: 'updates[0].product_id' });
    expect(value(catalog.getProduct('prd_000001')).stock).toBe(42);
  });
});

describe('users', () => {
  it('lists with no status default; filters by role, status and search on name or email', () => {
    expect(value(catalog.listUsers()).pagination).toEqual({ page: 1, limit: 20, total: 6, pages: 1 });
    expect(ids(value(catalog.listUsers({ role: 'viewer' })).items)).toEqual(['usr_000003', 'usr_000006']);
    expect(ids(value(catalog.listUsers({ status: 'inactive' })).items)).toEqual(['usr_000004', 'usr_000006']);
    expect(ids(value(catalog.listUsers({ role: 'user', status: 'suspended' })).items)).toEqual(['usr_000005']);
    expect(ids(value(catalog.listUsers({ search: 'MARTINEZ' })).items)).toEqual(['usr_000002']);
    expect(ids(value(catalog.listUsers({ search: 'li@example' })).items)).toEqual(['usr_000006']);
    expect(value(catalog.listUsers({ limit: 4, page: 2 })).pagination).toEqual({ page: 2, limit: 4, total: 6, pages: 2 });
    expect(failure(catalog.listUsers({ role: 'root' as UserRole }))).toMatchObject({ status: 400, field: 'role' });
    expect(failure(catalog.listUsers({ limit: 101 }))).toMatchObject({ status: 400, field: 'limit' });
  });

  it('creates an active user and keeps no password', () => {
    const u = value(catalog.createUser({ name: 'Grace Hopper', email: 'grace@example.com', role: 'admin', password: 'cobol!' }));
    expect(u).toEqual({ id: 'usr_000007', name: 'Grace Hopper', email: 'grace@example.com', role: 'admin', status: 'active', createdAt: START, updatedAt: START });
    expect(JSON.stringify(u)).not.toContain('cobol');
  });

  it.each([
    [{ email: 'not-an-email' }, 'email'],
    [{ email: 'a@b' }, 'email'],
    [{ email: 'a b@c.de' }, 'email'],
    [{ name: '' }, 'name'],
    [{ role: 'owner' as UserRole }, 'role'],
    [{ password: ' ' }, 'password'],
  ])('rejects a create with %o naming %s', (bad, field) => {
    expect(failure(catalog.createUser({ name: 'X', email: 'x@example.com', role: 'user', password: 'pw', ...bad }))).toMatchObject({ status: 400, code: 'invalid_request', field });
  });

  it('409 duplicate_email, compared case-insensitively, on create and update', () => {
    expect(failure(catalog.createUser({ name: 'A', email: 'Alice.Nguyen@Example.com', role: 'user', password: 'p' }))).toMatchObject({ status: 409, code: 'duplicate_email', field: 'email' });
    expect(failure(catalog.updateUser('usr_000002', { email: 'carol.smith@example.com' })).code).toBe('duplicate_email');
    expect(value(catalog.updateUser('usr_000002', { email: 'BOB.martinez@example.com' })).email).toBe('BOB.martinez@example.com');
  });

  it('updates fields, sets and clears the avatar, and deletes permanently', () => {
    clock.advanceBy(10);
    expect(value(catalog.updateUser('usr_000003', { status: 'suspended', avatar: 'https://cdn.example.com/c.png' }))).toMatchObject({ status: 'suspended', avatar: 'https://cdn.example.com/c.png', updatedAt: START + 10 });
    expect(value(catalog.updateUser('usr_000003', { role: 'admin' })).avatar).toBe('https://cdn.example.com/c.png');
    expect('avatar' in value(catalog.updateUser('usr_000003', { avatar: '' }))).toBe(false);
    expect(failure(catalog.updateUser('usr_000003', {})).status).toBe(400);
    expect(failure(catalog.updateUser('usr_000003', { email: 'bad' })).field).toBe('email');
    value(catalog.deleteUser('usr_000003'));
    expect(failure(catalog.getUser('usr_000003')).code).toBe('not_found');
    expect(failure(catalog.updateUser('usr_000003', { name: 'Z' })).status).toBe(404);
    expect(failure(catalog.deleteUser('usr_000003')).status).toBe(404);
  });
});
