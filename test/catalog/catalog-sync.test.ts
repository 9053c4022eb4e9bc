import { CatalogClient } from '../../src/catalog/client.js';
import type { CatalogSyncOptions, CatalogSyncReport, CatalogSyncResult } from '../../src/catalog/sync.js';
import { CatalogSync } from '../../src/catalog/sync.js';
import { PRODUCT_STATUSES } from '../../src/protocol/catalog/types.js';
import type { ProductStatus } from '../../src/protocol/catalog/types.js';
import { dec } from '../../src/core/decimal.js';
import type { Result } from '../../src/core/result.js';
import { silentLogger } from '../../src/core/logger.js';
import type { CatalogEvent } from '../../src/model/catalog-events.js';
import type { CatalogMirror, MirrorDiff } from '../../src/model/catalog-mirror.js';
import type { SimCatalog } from '../../src/sim/catalog/index.js';
import { StateStore } from '../../src/store/state-file/state-store.js';
import { createGotHttp } from '../../src/venue/got-http.js';
import type { HttpPort, HttpRequest } from '../../src/venue/http-port.js';
import type { RunningSim } from '../sim/e2e/sim-harness.js';
import { startSim, value } from '../sim/e2e/sim-harness.js';

/** Catalog sync against the simulator's catalog service over loopback, mirroring into a real (in-memory) SQLite store. */

let s: RunningSim;
let store: StateStore;
let mirror: CatalogMirror;
/** Every catalog request the sync's client sent, by URL. */
let sent: string[];
/** Runs before a request is forwarded to the simulator (fault injection on real traffic). */
let beforeSend: ((request: HttpRequest) => void) | undefined;

beforeEach(async () => {
  s = await startSim({ warmupMs: 0 });
  store = StateStore.inMemory();
  mirror = store.catalogMirror();
  sent = [];
  beforeSend = undefined;
});
afterEach(async () => {
  store.close();
  await s.stop();
});

/** A CatalogClient on the simulator whose requests pass through `beforeSend` and are recorded. */
function client(): CatalogClient {
  const real = createGotHttp();
  const http: HttpPort = {
    send: (request) => {
      beforeSend?.(request);
      sent.push(request.url);
      return real.send(request);
    },
  };
  return new CatalogClient({ baseUrl: s.sim.address.catalogUrl, token: s.config.catalog.token, timeoutMs: 3000, http });
}

/** The client a test uses to change the catalog through the API (not recorded). */
function api(): CatalogClient {
  return new CatalogClient({ baseUrl: s.sim.address.catalogUrl, token: s.config.catalog.token, timeoutMs: 3000 });
}

function sync(options: Partial<CatalogSyncOptions> = {}): CatalogSync {
  return new CatalogSync({ client: client(), mirror, clock: s.clock, logger: silentLogger, ...options });
}

function report(result: CatalogSyncResult): CatalogSyncReport {
  if (!result.ok) throw new Error(`sync failed: ${JSON.stringify(result.error)}`);
  return result.value;
}

/** Ids the simulator holds, read in-process page by page. */
function simProductIds(catalog: SimCatalog, status?: ProductStatus): string[] {
  const ids: string[] = [];
  for (const st of status === undefined ? PRODUCT_STATUSES : [status]) {
    for (let page = 1; ; page += 1) {
      const rows = simValue((catalog.listProducts({ status: st, page, limit: 100 })));
      ids.push(...rows.items.map((p) => p.id));
      if (page >= rows.pagination.pages) break;
    }
  }
  return ids.sort();
}

function simUserIds(catalog: SimCatalog): string[] {
  const ids: string[] = [];
  for (let page = 1; ; page += 1) {
    const rows = simValue((catalog.listUsers({ page, limit: 100 })));
    ids.push(...rows.items.map((u) => u.id));
    if (page >= rows.pagination.pages) break;
  }
  return ids.sort();
}

/** The value of an in-process SimCatalog call. */
function simValue<T>(result: Result<T, { readonly message: string }>): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

function changed(diff: Readonly<Record<'product' | 'user', MirrorDiff>>): CatalogEvent[] {
  const events: CatalogEvent[] = [];
  for (const entity of ['product', 'user'] as const) {
    for (const change of ['created', 'updated', 'deleted'] as const) {
      for (const id of diff[entity][change]) events.push({ type: 'catalog.changed', time: s.clock.now(), entity, change, id });
    }
  }
  return events;
}

function expectMirrorEqualsSim(): void {
  expect(mirror.ids('product')).toEqual(simProductIds(s.sim.catalog));
  expect(mirror.ids('user')).toEqual(simUserIds(s.sim.catalog));
}

describe('CatalogSync against the simulator', () => {
  it('mirrors every product of every status and every user, walking every page', async () => {
    const r = report(await sync({ pageSize: 3 }).run());
    const products = simProductIds(s.sim.catalog);
    const users = simUserIds(s.sim.catalog);
    // The seed has products in all three statuses; the default list would show only the active ones.
    for (const status of PRODUCT_STATUSES) expect(simProductIds(s.sim.catalog, status).length).toBeGreaterThan(0);
    expect(products.length).toBeGreaterThan(simProductIds(s.sim.catalog, 'active').length);
    expect(r.products).toBe(products.length);
    expect(r.users).toBe(users.length);
    expectMirrorEqualsSim();
    expect(r.changes).toEqual({ product: { created: products, updated: [], deleted: [] }, user: { created: users, updated: [], deleted: [] } });
    expect(r.events).toEqual([
      ...products.map((id) => ({ type: 'catalog.changed', time: s.clock.now(), entity: 'product', change: 'created', id })),
      ...users.map((id) => ({ type: 'catalog.changed', time: s.clock.now(), entity: 'user', change: 'created', id })),
      { type: 'catalog.synced', time: s.clock.now(), products: products.length, users: users.length, created: products.length + users.length, updated: 0, deleted: 0 },
    ]);
    // Each product list was asked for by status, several pages deep with 3 records per page.
    for (const status of PRODUCT_STATUSES) expect(sent.some((url) => url.includes(`status=${status}`))).toBe(true);
    expect(sent.some((url) => url.includes('/v1/users') && url.includes('page=2'))).toBe(true);
    expect(r.requests).toBe(sent.length);
    // Prices are mirrored as exact decimal text.
    const chair = mirror.get('product', 'prd_000001')?.data;
    expect(chair).toMatchObject({ sku: 'FURN-CHAIR-001', price: '249.99', status: 'active' });
    expect(mirror.lastSyncedAt()).toBe(s.clock.now());
  });

  it('walks pages of 100 by default', async () => {
    for (let i = 0; i < 230; i += 1) {
      const status = PRODUCT_STATUSES[i % 3] ?? 'active';
      simValue((s.sim.catalog.createProduct({ name: `Bulk ${i}`, sku: `BULK-${i}`, price: dec(`${i + 1}.25`), status })));
    }
    const r = report(await sync().run());
    expect(r.products).toBe(237);
    expectMirrorEqualsSim();
    // Walk pages ask for 100 records; the totals re-check asks for one.
    expect(new Set(sent.map((url) => new URL(url).searchParams.get('limit')))).toEqual(new Set(['100', '1']));
    expect(sent.filter((url) => url.includes('status=active') && url.includes('limit=100'))).toHaveLength(1);
  });

  it('reports exactly what changed through the API on a second run, and nothing on a third', async () => {
    const job = sync({ pageSize: 2 });
    report(await job.run());
    const catalog = api();
    s.clock.advanceBy(60_000);

    const created = value(await catalog.createProduct({ name: 'New Lamp', sku: 'LAMP-NEW-1', price: dec('45.5'), status: 'draft' })).record.id;
    value(await catalog.updateProduct('prd_000002', { price: dec('379.95') }));
    value(await catalog.updateProduct('prd_000003', { status: 'archived' }));
    value(await catalog.deleteProduct('prd_000005'));
    const newUser = value(await catalog.createUser({ name: 'Gina Rossi', email: 'gina.rossi@example.com', role: 'user', password: 'long-enough-pass' })).record.id;
    value(await catalog.updateUser('usr_000004', { status: 'active' }));
    value(await catalog.deleteUser('usr_000006'));
    s.clock.advanceBy(1_000);

    const second = report(await job.run());
    const expected = {
      product: { created: [created], updated: ['prd_000002', 'prd_000003'], deleted: ['prd_000005'] },
      user: { created: [newUser], updated: ['usr_000004'], deleted: ['usr_000006'] },
    };
    expect(second.changes).toEqual(expected);
    expect(second.events).toEqual([
      ...changed(expected),
      { type: 'catalog.synced', time: s.clock.now(), products: second.products, users: second.users, created: 2, updated: 3, deleted: 2 },
    ]);
    expectMirrorEqualsSim();
    expect(mirror.get('product', 'prd_000002')?.data).toMatchObject({ price: '379.95' });
    expect(mirror.get('product', 'prd_000003')).toMatchObject({ data: { status: 'archived' }, lastChanged: s.clock.now() });
    expect(mirror.get('product', created)?.data).toMatchObject({ status: 'draft', price: '45.5' });

    const third = report(await job.run());
    expect(third.changes).toEqual({ product: { created: [], updated: [], deleted: [] }, user: { created: [], updated: [], deleted: [] } });
    expect(third.events).toEqual([{ type: 'catalog.synced', time: s.clock.now(), products: second.products, users: second.users, created: 0, updated: 0, deleted: 0 }]);
  });

  it('a page that fails mid-walk changes nothing in the mirror (no false deletions) and returns the error', async () => {
    const job = sync({ pageSize: 2 });
    const first = report(await job.run());
    const before = { products: mirror.ids('product'), users: mirror.ids('user'), lastSync: mirror.lastSyncedAt() };
    const catalog = api();
    value(await catalog.deleteProduct('prd_000001'));
    const newUser = value(await catalog.createUser({ name: 'Hal Berg', email: 'hal.berg@example.com', role: 'viewer', password: 'long-enough-pass' })).record.id;
    s.clock.advanceBy(1_000);

    // Every product page succeeds; the simulator answers 500 from the first users page on.
    beforeSend = (request) => {
      if (request.url.includes('/v1/users')) s.sim.http.faults.update({ http5xxRate: 1 });
    };
    const failed = await job.run();
    expect(failed.ok).toBe(false);
    if (failed.ok) return;
    expect(failed.error).toMatchObject({ kind: 'fetch', list: 'users' });
    expect(failed.error.kind === 'fetch' && failed.error.error.kind).toBe('unknown-status');
    expect(sent.filter((url) => url.includes('/v1/products')).length).toBeGreaterThan(first.requests / 2);
    expect({ products: mirror.ids('product'), users: mirror.ids('user'), lastSync: mirror.lastSyncedAt() }).toEqual(before);

    beforeSend = undefined;
    s.sim.http.faults.update({ http5xxRate: 0 });
    const healed = report(await job.run());
    expect(healed.changes).toEqual({ product: { created: [], updated: [], deleted: ['prd_000001'] }, user: { created: [newUser], updated: [], deleted: [] } });
    expectMirrorEqualsSim();
  });

  it('walks again when a record moves between lists during the walk, and reports it once', async () => {
    const job = sync({ pageSize: 2 });
    report(await job.run());
    let moved = false;
    // While the draft list is read, an active product (already listed) becomes a draft: it would be listed twice.
    beforeSend = (request) => {
      if (!moved && request.url.includes('status=draft')) {
        moved = true;
        simValue((s.sim.catalog.updateProduct('prd_000001', { status: 'draft' })));
      }
    };
    const r = report(await job.run());
    expect(moved).toBe(true);
    expect(r.attempts).toBe(2);
    expect(r.changes.product).toEqual({ created: [], updated: ['prd_000001'], deleted: [] });
    expect(mirror.get('product', 'prd_000001')?.data).toMatchObject({ status: 'draft' });
    expectMirrorEqualsSim();
  });

  it('walks again when a record moves into a list already read (it is in none): the totals re-check catches it', async () => {
    const job = sync({ pageSize: 2 });
    report(await job.run());
    let moved = false;
    // Lists are read active, draft, archived. While the draft list is read, the archived product becomes
    // active: the active list was read before and the archived list will not show it. Trusting that walk
    // would report a false deletion.
    beforeSend = (request) => {
      if (!moved && request.url.includes('status=draft')) {
        moved = true;
        simValue(s.sim.catalog.updateProduct('prd_000005', { status: 'active' }));
      }
    };
    const r = report(await job.run());
    expect(moved).toBe(true);
    expect(r.attempts).toBe(2);
    expect(r.changes.product).toEqual({ created: [], updated: ['prd_000005'], deleted: [] });
    expect(r.events.some((e) => e.type === 'catalog.changed' && e.change === 'deleted')).toBe(false);
    expectMirrorEqualsSim();
  });

  it('gives up without touching the mirror when the catalog keeps changing', async () => {
    const job = sync({ pageSize: 2, maxAttempts: 3 });
    report(await job.run());
    const before = mirror.ids('product');
    let n = 0;
    beforeSend = (request) => {
      if (request.url.includes('/v1/users') && request.url.includes('page=1&limit=2')) {
        n += 1;
        simValue((s.sim.catalog.createProduct({ name: `Churn ${n}`, sku: `CHURN-${n}`, price: dec('1') })));
      }
    };
    const result = await job.run();
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ kind: 'unstable', attempts: 3 });
    expect(n).toBe(3);
    expect(mirror.ids('product')).toEqual(before);
  });

  it('runs one at a time: a run requested while one is going joins it', async () => {
    const job = sync({ pageSize: 2 });
    const a = job.run();
    const b = job.run();
    expect(b).toBe(a);
    expect(job.busy).toBe(true);
    const [ra, rb] = await Promise.all([a, b]);
    expect(rb).toBe(ra);
    expect(report(ra).requests).toBe(sent.length);
    expect(job.busy).toBe(false);
    const c = job.run();
    expect(c).not.toBe(a);
    expect(report(await c).events).toHaveLength(1);
  });
});
