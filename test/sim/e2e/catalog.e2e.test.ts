import { dec } from '../../../src/core/decimal.js';
import { CatalogClient } from '../../../src/catalog/client.js';
import type { RunningSim } from './sim-harness.js';
import { failure, startSim, value } from './sim-harness.js';

/** The catalog service (document 002) mounted on the simulator's server, through the project's CatalogClient. */
let s: RunningSim;
let catalog: CatalogClient;

beforeAll(async () => {
  s = await startSim({ warmupMs: 0 });
  catalog = new CatalogClient({ baseUrl: s.sim.address.catalogUrl, token: s.config.catalog.token, timeoutMs: 3000 });
});
afterAll(() => s.stop());

describe('catalog at the simulator URL', () => {
  it('is mounted under /catalog of the exchange base URL', () => {
    expect(s.sim.address.catalogUrl).toBe(`${s.sim.address.baseUrl}/catalog`);
  });

  it('products: list, get, create (stamped with the virtual clock), patch, bulk stock, delete', async () => {
    const page = value(await catalog.listProducts({ limit: 2 }));
    expect(page.items).toHaveLength(2);
    expect(page.pagination.total).toBeGreaterThan(2);
    const first = page.items[0];
    if (first === undefined) throw new Error('no products');
    expect(value(await catalog.getProduct(first.id)).sku).toBe(first.sku);

    s.clock.advanceBy(1_500);
    const created = value(await catalog.createProduct({ name: 'Sim Widget', sku: 'SIM-WIDGET-1', price: dec('12.345'), stock: 3, category: 'hardware' }));
    expect(created.record.created_at).toBe(new Date(s.clock.now()).toISOString());
    expect(created.record.price.toFixed()).toBe('12.345');
    const id = created.record.id;

    const patched = value(await catalog.updateProduct(id, { stock: 10 }));
    expect(patched.record).toMatchObject({ id, stock: 10 });
    expect(value(await catalog.bulkUpdateStock([{ product_id: id, stock: 4 }, { product_id: 'prd_missing', stock: 1 }]))).toMatchObject({ updated: 1, failed: 1 });
    expect(value(await catalog.getProduct(id)).stock).toBe(4);

    const walked: string[] = [];
    for await (const p of catalog.allProducts({ category: 'hardware' })) walked.push(p.id);
    expect(walked).toContain(id);

    value(await catalog.deleteProduct(id));
    expect(failure(await catalog.getProduct(id))).toMatchObject({ kind: 'rejected', code: 'not_found', httpStatus: 404 });
  });

  it('users: list, create, patch, delete; a duplicate email is 409', async () => {
    const users = value(await catalog.listUsers());
    expect(users.items.length).toBeGreaterThan(0);
    const saved = value(await catalog.createUser({ name: 'Sim Tester', email: 'sim.tester@example.com', role: 'viewer', password: 'correct-horse-battery' }));
    expect(saved.record).toMatchObject({ name: 'Sim Tester', role: 'viewer' });
    const again = await catalog.createUser({ name: 'Other', email: 'sim.tester@example.com', role: 'user', password: 'correct-horse-battery' });
    expect(failure(again)).toMatchObject({ kind: 'rejected', httpStatus: 409 });
    expect(value(await catalog.updateUser(saved.record.id, { status: 'suspended' })).record.status).toBe('suspended');
    value(await catalog.deleteUser(saved.record.id));
    expect(failure(await catalog.getUser(saved.record.id)).httpStatus).toBe(404);
  });

  it('another token is 401; the exchange API keys are not catalog tokens', async () => {
    const trader = s.config.keys.find((k) => k.name === 'trader');
    const stranger = new CatalogClient({ baseUrl: s.sim.address.catalogUrl, token: trader?.apiKey ?? 'x', timeoutMs: 3000 });
    expect(failure(await stranger.listProducts())).toMatchObject({ kind: 'rejected', code: 'unauthorized', httpStatus: 401 });
  });
});
