import { z } from 'zod';
import { dec } from '../../../src/core/decimal.js';
import { orderedParams } from '../../../src/core/ordered-params.js';
import { VirtualClock } from '../../../src/core/virtual-time.js';
import type { CatalogEndpoint } from '../../../src/catalog/endpoints.js';
import { CATALOG_ENDPOINTS as EP } from '../../../src/catalog/endpoints.js';
import type { CatalogRequest } from '../../../src/catalog/transport.js';
import { CatalogTransport } from '../../../src/catalog/transport.js';
import { createGotHttp } from '../../../src/venue/got-http.js';
import { createCatalogRouter, EMPTY_CATALOG_SEED, SimCatalog } from '../../../src/sim/catalog/index.js';
import { CatalogLoopback } from './catalog-loopback.js';

/**
 * The simulated catalog on the wire: exact envelopes, authentication, malformed bodies, and the
 * server-side 400s that CatalogClient never lets through (it refuses them locally), sent here with
 * the client's own transport or raw fetch.
 */

const TOKEN = 'simCatalogToken000000000000000005';
const START = 1_767_225_600_000;

let catalog: SimCatalog;
let server: CatalogLoopback;
let transport: CatalogTransport;

beforeEach(async () => {
  catalog = new SimCatalog({ clock: new VirtualClock(START) });
  server = await CatalogLoopback.start(createCatalogRouter(catalog, { token: TOKEN }));
  transport = new CatalogTransport(createGotHttp(), { baseUrl: server.baseUrl, token: TOKEN, timeoutMs: 2000 });
});
afterEach(() => server.close());

interface RawReply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

async function raw(method: string, path: string, options: { body?: string; auth?: string | null } = {}): Promise<RawReply> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const auth = options.auth === undefined ? `Bearer ${TOKEN}` : options.auth;
  if (auth !== null) headers['authorization'] = auth;
  const res = await fetch(`${server.baseUrl}${path}`, { method, headers, ...(options.body === undefined ? {} : { body: options.body }) });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe('envelopes on the wire', () => {
  it('single: the whole product in spec field order, price a bare JSON number', async () => {
    const reply = await raw('GET', '/v1/products/prd_000003');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(reply.text).toBe(
      '{"success":true,"data":{"id":"prd_000003","name":"Wireless Mechanical Keyboard","description":"Hot-swappable switches, Bluetooth and USB-C.",' +
        '"sku":"ELEC-KB-003","price":129.5,"currency":"USD","stock":80,"category":"electronics","images":["https://cdn.example.com/catalog/keyboard.jpg"],' +
        '"status":"active","created_at":"2025-11-02T00:00:00.000Z","updated_at":"2025-11-02T00:00:00.000Z"}}',
    );
  });

  it('create: 201 with message; a price with more digits than a double keeps its digits', async () => {
    const reply = await raw('POST', '/v1/products', { body: '{"name":"Gold Pen","sku":"PEN-AU","price":1234567890.123456789012,"stock":1}' });
    expect(reply.status).toBe(201);
    expect(reply.text).toMatch(/^\{"success":true,"data":\{"id":"prd_000008",.*"price":1234567890\.123456789012,.*\},"message":"Product created"\}$/);
  });

  it('list: data and integer pagination; delete: message only; failure: code and message, field only when there is one', async () => {
    const list = JSON.parse((await raw('GET', '/v1/users?limit=2&page=3')).text) as Record<string, unknown>;
    expect(Object.keys(list)).toEqual(['success', 'data', 'pagination']);
    expect(list['pagination']).toEqual({ page: 3, limit: 2, total: 6, pages: 3 });
    expect((await raw('DELETE', '/v1/users/usr_000006')).text).toBe('{"success":true,"message":"User deleted"}');
    const gone = await raw('GET', '/v1/users/usr_000006');
    expect(gone.status).toBe(404);
    expect(gone.text).toBe('{"success":false,"error":{"code":"not_found","message":"User \\"usr_000006\\" not found"}}');
    const dup = await raw('POST', '/v1/products', { body: '{"name":"x","sku":"ELEC-KB-003","price":1}' });
    expect(dup.status).toBe(409);
    expect(JSON.parse(dup.text)).toEqual({ success: false, error: { code: 'duplicate_sku', message: expect.any(String) as string, field: 'sku' } });
  });

  it('bulk: {updated, failed} with message', async () => {
    const reply = await raw('POST', '/v1/products/bulk/stock', { body: '{"updates":[{"product_id":"prd_000001","stock":3},{"product_id":"zzz","stock":3}]}' });
    expect(reply.text).toBe('{"success":true,"data":{"updated":1,"failed":1},"message":"Stock updated"}');
  });

  it('password is write-only: never in a create, get or list reply', async () => {
    const created = await raw('POST', '/v1/users', { body: '{"name":"Ann","email":"ann@example.com","role":"user","password":"hunter2-secret"}' });
    expect(created.status).toBe(201);
    const data = (JSON.parse(created.text) as { data: Record<string, unknown> }).data;
    expect(Object.keys(data)).toEqual(['id', 'name', 'email', 'role', 'status', 'created_at', 'updated_at']);
    expect(data['status']).toBe('active');
    for (const reply of [created, await raw('GET', '/v1/users/usr_000007'), await raw('GET', '/v1/users?search=ann')]) {
      expect(reply.text).not.toMatch(/password|hunter2/);
    }
  });
});

describe('authentication', () => {
  it.each([
    ['no Authorization header', null],
    ['another token', 'Bearer simCatalogToken000000000000000006'],
    ['another scheme', `Basic ${TOKEN}`],
    ['token only', TOKEN],
    ['token with a suffix', `Bearer ${TOKEN} extra`],
  ])('%s → 401 unauthorized envelope with WWW-Authenticate, nothing changes', async (_name, auth) => {
    const reply = await raw('DELETE', '/v1/products/prd_000001', { auth });
    expect(reply.status).toBe(401);
    expect(reply.headers.get('www-authenticate')).toBe('Bearer');
    expect(JSON.parse(reply.text)).toEqual({ success: false, error: { code: 'unauthorized', message: 'missing or invalid bearer token' } });
    expect(catalog.getProduct('prd_000001').ok).toBe(true);
  });

  it('the scheme is case-insensitive', async () => {
    expect((await raw('GET', '/v1/products/prd_000001', { auth: `bearer ${TOKEN}` })).status).toBe(200);
  });

  it('an empty configured token is a bug', () => {
    expect(() => createCatalogRouter(catalog, { token: ' ' })).toThrow(/non-empty API token/);
  });
});

describe('malformed bodies', () => {
  it.each([
    ['not JSON', 'POST', '/v1/products', '{"name": '],
    ['empty', 'POST', '/v1/users', ''],
    ['an array', 'POST', '/v1/products/bulk/stock', '[{"product_id":"prd_000001","stock":1}]'],
    ['a string', 'PATCH', '/v1/users/usr_000001', '"x"'],
    ['duplicate keys', 'PATCH', '/v1/products/prd_000001', '{"stock":1,"stock":2}'],
  ])('%s → 400 invalid_request without a field', async (_name, method, path, body) => {
    const reply = await raw(method, path, { body });
    expect(reply.status).toBe(400);
    const parsed = JSON.parse(reply.text) as { success: boolean; error: Record<string, unknown> };
    expect(parsed.success).toBe(false);
    expect(parsed.error['code']).toBe('invalid_request');
    expect(parsed.error['field']).toBeUndefined();
  });
});

describe('server-side validation (400 invalid_request naming the field)', () => {
  type Case = readonly [string, CatalogEndpoint, CatalogRequest, string | undefined];
  const product = { name: 'Lamp', sku: 'LAMP-1', price: dec(10) };
  const user = { name: 'Ann', email: 'ann@example.com', role: 'user', password: 'pw' };
  const p1 = { product_id: 'prd_000001' };
  const u1 = { user_id: 'usr_000001' };
  const cases: readonly Case[] = [
    ['zero price', EP.createProduct, { body: { ...product, price: dec(0) } }, 'price'],
    ['negative price', EP.createProduct, { body: { ...product, price: dec('-5') } }, 'price'],
    ['price as text', EP.createProduct, { body: { ...product, price: '12' } }, 'price'],
    ['no price', EP.createProduct, { body: { name: 'Lamp', sku: 'LAMP-1' } }, 'price'],
    ['no name', EP.createProduct, { body: { sku: 'LAMP-1', price: dec(1) } }, 'name'],
    ['name not a string', EP.createProduct, { body: { ...product, name: 42 } }, 'name'],
    ['null sku', EP.createProduct, { body: { ...product, sku: null } }, 'sku'],
    ['fractional stock', EP.createProduct, { body: { ...product, stock: 1.5 } }, 'stock'],
    ['negative stock', EP.createProduct, { body: { ...product, stock: -1 } }, 'stock'],
    ['stock as text', EP.createProduct, { body: { ...product, stock: '3' } }, 'stock'],
    ['lower-case currency', EP.createProduct, { body: { ...product, currency: 'usd' } }, 'currency'],
    ['unknown product status', EP.createProduct, { body: { ...product, status: 'live' } }, 'status'],
    ['images not an array', EP.createProduct, { body: { ...product, images: 'a.png' } }, 'images'],
    ['image not a string', EP.createProduct, { body: { ...product, images: ['a.png', 7] } }, 'images[1]'],
    ['patch: zero price', EP.updateProduct, { pathParams: p1, body: { price: dec(0) } }, 'price'],
    ['patch: empty name', EP.updateProduct, { pathParams: p1, body: { name: ' ' } }, 'name'],
    ['patch: nothing to change', EP.updateProduct, { pathParams: p1, body: { id: 'prd_9', created_at: 'x' } }, undefined],
    ['bulk: updates missing', EP.bulkUpdateStock, { body: { rows: [] } }, 'updates'],
    ['bulk: no rows', EP.bulkUpdateStock, { body: { updates: [] } }, 'updates'],
    ['bulk: row not an object', EP.bulkUpdateStock, { body: { updates: [5] } }, 'updates[0]'],
    ['bulk: no product_id', EP.bulkUpdateStock, { body: { updates: [{ product_id: 'prd_000001', stock: 1 }, { stock: 1 }] } }, 'updates[1].product_id'],
    ['bulk: negative stock', EP.bulkUpdateStock, { body: { updates: [{ product_id: 'prd_000001', stock: -1 }] } }, 'updates[0].stock'],
    ['malformed email', EP.createUser, { body: { ...user, email: 'ann.example.com' } }, 'email'],
    ['email without a domain dot', EP.createUser, { body: { ...user, email: 'ann@example' } }, 'email'],
    ['no password', EP.createUser, { body: { name: 'Ann', email: 'ann@example.com', role: 'user' } }, 'password'],
    ['no role', EP.createUser, { body: { name: 'Ann', email: 'ann@example.com', password: 'pw' } }, 'role'],
    ['unknown role', EP.createUser, { body: { ...user, role: 'root' } }, 'role'],
    ['patch user: unknown status', EP.updateUser, { pathParams: u1, body: { status: 'banned' } }, 'status'],
    ['patch user: malformed email', EP.updateUser, { pathParams: u1, body: { email: 'x@y' } }, 'email'],
    ['patch user: avatar not a string', EP.updateUser, { pathParams: u1, body: { avatar: false } }, 'avatar'],
    ['list: limit above 100', EP.listProducts, { query: orderedParams({ limit: 101 }) }, 'limit'],
    ['list: limit 0', EP.listUsers, { query: orderedParams({ limit: 0 }) }, 'limit'],
    ['list: page 0', EP.listProducts, { query: orderedParams({ page: 0 }) }, 'page'],
    ['list: page not a number', EP.listUsers, { query: orderedParams({ page: 'two' }) }, 'page'],
    ['list: unknown product status', EP.listProducts, { query: orderedParams({ status: 'deleted' }) }, 'status'],
    ['list: min_price not a number', EP.listProducts, { query: orderedParams({ min_price: 'cheap' }) }, 'min_price'],
    ['list: max_price negative', EP.listProducts, { query: orderedParams({ max_price: '-1' }) }, 'max_price'],
    ['list: min above max', EP.listProducts, { query: orderedParams({ min_price: 10, max_price: 5 }) }, 'min_price'],
    ['list: unknown role', EP.listUsers, { query: orderedParams({ role: 'root' }) }, 'role'],
    ['list: unknown user status', EP.listUsers, { query: orderedParams({ status: 'gone' }) }, 'status'],
  ];

  it.each(cases)('%s', async (_name, endpoint, request, field) => {
    const result = await transport.call(endpoint, request, z.unknown());
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ kind: 'rejected', code: 'invalid_request', httpStatus: 400, field });
  });

  it('nothing was written by the rejected requests', async () => {
    for (const [, endpoint, request] of cases) await transport.call(endpoint, request, z.unknown());
    expect(catalog.listProducts({ search: 'LAMP' })).toMatchObject({ ok: true, value: { items: [] } });
    expect(catalog.getProduct('prd_000001')).toMatchObject({ ok: true, value: { name: 'Ergonomic Office Chair', stock: 42 } });
    expect(catalog.listUsers()).toMatchObject({ ok: true, value: { pagination: { total: 6 } } });
  });

  it('404 comes before value checks on a patch of an unknown id', async () => {
    const result = await transport.call(EP.updateProduct, { pathParams: { product_id: 'prd_777777' }, body: { price: dec(0) } }, z.unknown());
    expect(!result.ok && result.error).toMatchObject({ code: 'not_found', httpStatus: 404 });
  });
});

describe('routing', () => {
  it('405 method_not_allowed with Allow on a served path (after authentication)', async () => {
    const put = await raw('PUT', '/v1/products', { body: '{}' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
    expect(JSON.parse(put.text)).toMatchObject({ success: false, error: { code: 'method_not_allowed' } });
    expect((await raw('GET', '/v1/products/bulk/stock')).headers.get('allow')).toBe('POST');
    expect((await raw('POST', '/v1/users/usr_000001', { body: '{}' })).headers.get('allow')).toBe('GET, PATCH, DELETE');
    expect((await raw('PUT', '/v1/products', { auth: null })).status).toBe(401);
  });

  it('decodes percent-encoded ids and ignores a trailing slash', async () => {
    expect((await raw('GET', '/v1/products/prd%5F000002')).status).toBe(200);
    expect((await raw('GET', '/v1/users/')).status).toBe(200);
    const malformed = await raw('GET', '/v1/products/%E0%A4%A');
    expect(malformed.status).toBe(404);
    expect(JSON.parse(malformed.text)).toMatchObject({ error: { code: 'not_found' } });
  });

  it('leaves paths it does not serve to the server (undefined)', async () => {
    const router = createCatalogRouter(new SimCatalog({ clock: new VirtualClock(START), seed: EMPTY_CATALOG_SEED }), { token: TOKEN });
    const request = { method: 'GET', query: new URLSearchParams(), headers: { authorization: `Bearer ${TOKEN}` }, body: '' };
    for (const path of ['/', '/v1', '/v2/products', '/v1/orders', '/v1/products/a/b', '/v1/products/bulk/stock/x', '/v1/users/u/x', '/products']) {
      expect(router.handle({ ...request, path })).toBeUndefined();
    }
    expect(router.handle({ ...request, path: '/v1/products' })?.status).toBe(200);
    const unmounted = await raw('GET', '/v1/orders');
    expect(unmounted.status).toBe(404);
    expect(unmounted.text).toBe('no route /catalog/v1/orders');
  });
});
