import { dec } from '../../../src/core/decimal.js';
import { VirtualClock } from '../../../src/core/virtual-time.js';
import { CatalogClient } from '../../../src/catalog/client.js';
import type { Product } from '../../../src/catalog/schemas.js';
import type { VenueError } from '../../../src/venue/venue-error.js';
import { createCatalogRouter, SimCatalog } from '../../../src/sim/catalog/index.js';
import { CatalogLoopback } from './catalog-loopback.js';

/** The project's real catalog client against the simulated catalog over loopback HTTP. */

const TOKEN = 'simCatalogToken000000000000000005';
const START = 1_767_225_600_000;

let clock: VirtualClock;
let catalog: SimCatalog;
let server: CatalogLoopback;
let client: CatalogClient;

beforeEach(async () => {
  clock = new VirtualClock(START);
  catalog = new SimCatalog({ clock });
  server = await CatalogLoopback.start(createCatalogRouter(catalog, { token: TOKEN }));
  client = new CatalogClient({ baseUrl: server.baseUrl, token: TOKEN, timeoutMs: 2000 });
});
afterEach(() => server.close());

function value<T, E>(result: { ok: true; value: T } | { ok: false; error: E }): T {
  if (!result.ok) throw result.error instanceof Error ? result.error : new Error(JSON.stringify(result.error));
  return result.value;
}

function failure<T>(result: { ok: true; value: T } | { ok: false; error: VenueError }): VenueError {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result.error;
}

const ids = (rows: readonly { id: string }[]): string[] => rows.map((r) => r.id);

async function collect(walk: AsyncGenerator<Product, void, undefined>): Promise<string[]> {
  const seen: string[] = [];
  for await (const p of walk) seen.push(p.id);
  return seen;
}

describe('listing products', () => {
  it('lists active products by default; rows omit images; prices are exact', async () => {
    const page = value(await client.listProducts());
    expect(ids(page.items)).toEqual(['prd_000001', 'prd_000002', 'prd_000003', 'prd_000006']);
    expect(page.pagination).toEqual({ page: 1, limit: 20, total: 4, pages: 1 });
    expect(page.items.every((p) => p.images === undefined)).toBe(true);
    expect(page.items[0]?.price.toString()).toBe('249.99');
    expect(page.items[0]?.created_at).toBe('2025-09-03T00:00:00.000Z');
  });

  it('applies every filter the client sends', async () => {
    const list = async (q: Parameters<CatalogClient['listProducts']>[0]): Promise<string[]> => ids(value(await client.listProducts(q)).items);
    expect(await list({ status: 'draft' })).toEqual(['prd_000004', 'prd_000007']);
    expect(await list({ status: 'archived' })).toEqual(['prd_000005']);
    expect(await list({ category: 'furniture' })).toEqual(['prd_000001', 'prd_000002']);
    expect(await list({ min_price: dec('129.50') })).toEqual(['prd_000001', 'prd_000002', 'prd_000003']);
    expect(await list({ max_price: dec('129.5') })).toEqual(['prd_000003', 'prd_000006']);
    expect(await list({ min_price: dec(100), max_price: dec(300) })).toEqual(['prd_000001', 'prd_000003']);
    expect(await list({ search: 'keyboard' })).toEqual(['prd_000003']);
    expect(await list({ search: 'acc-slv' })).toEqual(['prd_000006']);
    expect(await list({ search: 'organizer kit', status: 'draft', category: 'accessories', min_price: dec(10), max_price: dec(13) })).toEqual(['prd_000007']);
    expect(await list({ category: 'garden' })).toEqual([]);
  });

  it('pages with page and limit', async () => {
    const second = value(await client.listProducts({ page: 2, limit: 3 }));
    expect(ids(second.items)).toEqual(['prd_000006']);
    expect(second.pagination).toEqual({ page: 2, limit: 3, total: 4, pages: 2 });
    const past = value(await client.listProducts({ page: 3, limit: 3 }));
    expect(past.items).toEqual([]);
  });

  it('allProducts walks every page: 2 per page, and 100 per page over 250 products', async () => {
    expect(await collect(client.allProducts({ limit: 2 }))).toEqual(['prd_000001', 'prd_000002', 'prd_000003', 'prd_000006']);
    expect(await collect(client.allProducts({ status: 'draft', limit: 1 }))).toEqual(['prd_000004', 'prd_000007']);
    for (let i = 0; i < 246; i += 1) value(catalog.createProduct({ name: `Bolt ${i}`, sku: `BOLT-${i}`, price: dec('0.25'), category: 'hardware' }));
    const all = await collect(client.allProducts());
    expect(all).toHaveLength(250);
    expect(new Set(all).size).toBe(250);
    expect(all.at(-1)).toBe('prd_000253');
    expect(await collect(client.allProducts({ category: 'hardware', search: 'bolt 24' }))).toHaveLength(7); // 24, 240..245
  });
});

describe('single products', () => {
  it('gets one with its images', async () => {
    const chair = value(await client.getProduct('prd_000001'));
    expect(chair).toMatchObject({ id: 'prd_000001', name: 'Ergonomic Office Chair', sku: 'FURN-CHAIR-001', currency: 'USD', stock: 42, category: 'furniture', status: 'active' });
    expect(chair.images).toEqual(['https://cdn.example.com/catalog/chair-front.jpg', 'https://cdn.example.com/catalog/chair-side.jpg']);
    expect(failure(await client.getProduct('prd_424242'))).toMatchObject({ kind: 'rejected', code: 'not_found', httpStatus: 404 });
  });

  it('creates one, keeping every digit of the price, stamped with the clock', async () => {
    clock.advanceBy(1_500);
    const saved = value(
      await client.createProduct({ name: 'Desk Mat', description: 'Felt', sku: 'ACC-MAT-008', price: dec('0.100000000000000000001'), currency: 'EUR', stock: 9, category: 'accessories', status: 'draft' }),
    );
    expect(saved.message).toBe('Product created');
    expect(saved.record).toMatchObject({ id: 'prd_000008', sku: 'ACC-MAT-008', stock: 9, status: 'draft', images: [], created_at: '2026-01-01T00:00:01.500Z', updated_at: '2026-01-01T00:00:01.500Z' });
    expect(saved.record.price.toFixed()).toBe('0.100000000000000000001');
    expect(value(await client.getProduct('prd_000008')).price.toFixed()).toBe('0.100000000000000000001');
    expect(ids(value(await client.listProducts({ status: 'draft' })).items)).toContain('prd_000008');
  });

  it('creates with only name, sku and price; the rest defaults', async () => {
    const { record } = value(await client.createProduct({ name: 'Pen', sku: 'PEN-1', price: dec(2) }));
    expect(record).toMatchObject({ description: '', currency: 'USD', stock: 0, category: 'uncategorized', status: 'active' });
  });

  it('409 duplicate_sku on create and on update', async () => {
    expect(failure(await client.createProduct({ name: 'Chair', sku: 'FURN-CHAIR-001', price: dec(1) }))).toMatchObject({ kind: 'rejected', code: 'duplicate_sku', field: 'sku', httpStatus: 409 });
    expect(failure(await client.updateProduct('prd_000002', { sku: 'ELEC-KB-003' }))).toMatchObject({ code: 'duplicate_sku', httpStatus: 409 });
  });

  it('patches: the reply holds the changed fields plus id and updated_at', async () => {
    clock.advanceBy(60_000);
    const saved = value(await client.updateProduct('prd_000003', { price: dec('119.99'), stock: 75, images: ['https://cdn.example.com/kb2.jpg'] }));
    expect(saved.message).toBe('Product updated');
    expect(Object.keys(saved.record).sort()).toEqual(['id', 'images', 'price', 'stock', 'updated_at']);
    expect(saved.record).toMatchObject({ id: 'prd_000003', stock: 75, images: ['https://cdn.example.com/kb2.jpg'], updated_at: '2026-01-01T00:01:00.000Z' });
    const after = value(await client.getProduct('prd_000003'));
    expect(after).toMatchObject({ name: 'Wireless Mechanical Keyboard', stock: 75, created_at: '2025-11-02T00:00:00.000Z', updated_at: '2026-01-01T00:01:00.000Z' });
    expect(after.price.toString()).toBe('119.99');
    expect(failure(await client.updateProduct('prd_999999', { stock: 1 }))).toMatchObject({ code: 'not_found', httpStatus: 404 });
  });

  it('deletes permanently: then 404 on get, patch and delete', async () => {
    expect(value(await client.deleteProduct('prd_000002'))).toEqual({ message: 'Product deleted' });
    expect(failure(await client.getProduct('prd_000002'))).toMatchObject({ code: 'not_found', httpStatus: 404 });
    expect(failure(await client.updateProduct('prd_000002', { stock: 3 })).code).toBe('not_found');
    expect(failure(await client.deleteProduct('prd_000002')).code).toBe('not_found');
    expect(ids(value(await client.listProducts()).items)).toEqual(['prd_000001', 'prd_000003', 'prd_000006']);
  });
});

describe('bulk stock', () => {
  it('counts updated and failed rows and applies the known ones', async () => {
    const result = value(await client.bulkUpdateStock([{ product_id: 'prd_000001', stock: 40 }, { product_id: 'gone', stock: 1 }, { product_id: 'prd_000004', stock: 25 }]));
    expect(result).toEqual({ updated: 2, failed: 1, message: 'Stock updated' });
    expect(value(await client.getProduct('prd_000001')).stock).toBe(40);
    expect(value(await client.getProduct('prd_000004')).stock).toBe(25);
    expect(value(await client.bulkUpdateStock([{ product_id: 'x', stock: 0 }]))).toMatchObject({ updated: 0, failed: 1 });
  });
});

describe('authentication', () => {
  it('a wrong token → 401 unauthorized, nothing changes', async () => {
    const stranger = new CatalogClient({ baseUrl: server.baseUrl, token: 'not-the-token', timeoutMs: 2000 });
    expect(failure(await stranger.listProducts())).toMatchObject({ kind: 'rejected', code: 'unauthorized', httpStatus: 401 });
    expect(failure(await stranger.deleteProduct('prd_000001')).httpStatus).toBe(401);
    expect(value(await client.getProduct('prd_000001')).id).toBe('prd_000001');
  });
});
