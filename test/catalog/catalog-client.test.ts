import { dec } from '../../src/core/decimal.js';
import type { Decimal } from '../../src/core/decimal.js';
import { CatalogClient } from '../../src/catalog/client.js';
import type { Product, User } from '../../src/catalog/schemas.js';
import type { ProductStatus, UserRole } from '../../src/protocol/catalog/types.js';
import { VenueError } from '../../src/venue/venue-error.js';
import type { SkippedRows } from '../../src/venue/wire/tolerant-list.js';
import { CatalogFixture, failure, list, single } from '../support/catalog-fixture.js';

const T0 = '2024-01-15T10:30:00Z';
const T1 = '2024-01-16T08:00:00.250+02:00';

function productRow(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id, name: `Product ${id}`, description: 'A thing', sku: `SKU-${id}`, price: 19.99, currency: 'USD', stock: 5,
    category: 'tools', status: 'active', created_at: T0, updated_at: T1, ...extra,
  };
}

function userRow(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, name: `User ${id}`, email: `${id}@example.com`, role: 'user', status: 'active', avatar: `https://cdn.example.com/${id}.png`, created_at: T0, updated_at: T1, ...extra };
}

let fixture: CatalogFixture;
let client: CatalogClient;

beforeAll(async () => {
  fixture = await CatalogFixture.start();
  client = new CatalogClient({ baseUrl: `${fixture.url}/`, token: fixture.token, timeoutMs: 2000 });
});
afterAll(() => fixture.close());
beforeEach(() => fixture.clear());

function expectError<T>(result: { ok: true; value: T } | { ok: false; error: VenueError }): VenueError {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  expect(result.error).toBeInstanceOf(VenueError);
  return result.error;
}

describe('products', () => {
  it('lists with every filter in the query, the Bearer token and no body, prices as exact Decimals', async () => {
    fixture.reply('GET /v1/products', { body: list([productRow('p1'), productRow('p2', { price: 5, images: ['https://img/1.png'] })], { page: 2, limit: 10, total: 12, pages: 2 }) });
    const result = await client.listProducts({ page: 2, limit: 10, category: 'tools', status: 'draft', min_price: dec('0.5'), max_price: dec('100.25'), search: 'wid get' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.pagination).toEqual({ page: 2, limit: 10, total: 12, pages: 2 });
    const [first, second] = result.value.items;
    expect(first?.price.toString()).toBe('19.99');
    expect(first?.images).toBeUndefined();
    expect('images' in (first ?? {})).toBe(false);
    expect(second?.images).toEqual(['https://img/1.png']);
    expect(first?.created_at).toBe(T0);
    const wire = fixture.last();
    expect(wire.method).toBe('GET');
    expect(wire.path).toBe('/v1/products');
    expect(wire.rawQuery).toBe('page=2&limit=10&category=tools&status=draft&min_price=0.5&max_price=100.25&search=wid%20get');
    expect(wire.headers['authorization']).toBe(`Bearer ${fixture.token}`);
    expect(wire.headers['content-type']).toBeUndefined();
    expect(wire.rawBody).toBe('');
  });

  it('sends no status when none is asked for (the server then lists active products only)', async () => {
    fixture.reply('GET /v1/products', { body: list([], { page: 1, limit: 20, total: 0, pages: 0 }) });
    const result = await client.listProducts();
    expect(result.ok && result.value.items).toEqual([]);
    expect(fixture.last().rawQuery).toBe('');
  });

  it('gets one product by id, percent-encoding the id', async () => {
    fixture.reply('GET /v1/products/p%2F1', { body: single(productRow('p/1', { images: ['a', 'b'] })) });
    const result = await client.getProduct('p/1');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.id).toBe('p/1');
    expect(result.value.images).toEqual(['a', 'b']);
    expect(result.value.stock).toBe(5);
    expect(fixture.last().method).toBe('GET');
  });

  it('keeps every digit of a price a double cannot hold', async () => {
    const raw = JSON.stringify(single(productRow('p1'))).replace('"price":19.99', '"price":1234567890.123456789012');
    fixture.reply('GET /v1/products/p1', { body: raw });
    const result = await client.getProduct('p1');
    expect(result.ok && result.value.price.toFixed()).toBe('1234567890.123456789012');
  });

  it('creates a product: JSON body with price as a bare number from the exact Decimal text', async () => {
    fixture.reply('POST /v1/products', { status: 201, body: single(productRow('p9', { price: 0.1, stock: 3 }), 'Product created') });
    const result = await client.createProduct({
      name: 'Widget', description: 'Blue', sku: 'W-1', price: dec('0.100000000000000000001'), currency: 'EUR', stock: 3, category: 'tools', status: 'draft',
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.message).toBe('Product created');
    expect(result.value.record.id).toBe('p9');
    expect(result.value.record.price.equals(dec('0.1'))).toBe(true);
    const wire = fixture.last();
    expect(wire.method).toBe('POST');
    expect(wire.headers['content-type']).toBe('application/json');
    expect(wire.rawBody).toBe('{"name":"Widget","description":"Blue","sku":"W-1","price":0.100000000000000000001,"currency":"EUR","stock":3,"category":"tools","status":"draft"}');
  });

  it('writes a large or tiny price without exponent notation and omits fields not given', async () => {
    fixture.reply('POST /v1/products', { body: single(productRow('p10'), 'Product created') });
    await client.createProduct({ name: 'Tiny', sku: 'T-1', price: dec('1e-7') });
    expect(fixture.last().rawBody).toBe('{"name":"Tiny","sku":"T-1","price":0.0000001}');
  });

  it('patches only the given fields and parses the partial reply', async () => {
    fixture.reply('PATCH /v1/products/p1', { body: single({ id: 'p1', price: 24.5, stock: 0, images: ['x'], updated_at: T1 }, 'Product updated') });
    const result = await client.updateProduct('p1', { price: dec('24.50'), stock: 0, images: ['x'] });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.record).toMatchObject({ id: 'p1', stock: 0, updated_at: T1 });
    expect(result.value.record.price?.toString()).toBe('24.5');
    expect(result.value.record.name).toBeUndefined();
    expect(result.value.message).toBe('Product updated');
    expect(fixture.last().method).toBe('PATCH');
    expect(fixture.last().rawBody).toBe('{"price":24.5,"stock":0,"images":["x"]}');
  });

  it('deletes a product (no-data envelope)', async () => {
    fixture.reply('DELETE /v1/products/p1', { body: { success: true, message: 'Product deleted' } });
    const result = await client.deleteProduct('p1');
    expect(result).toEqual({ ok: true, value: { message: 'Product deleted' } });
    expect(fixture.last().method).toBe('DELETE');
    expect(fixture.last().rawBody).toBe('');
  });

  it('bulk-updates stock', async () => {
    fixture.reply('POST /v1/products/bulk/stock', { body: single({ updated: 2, failed: 1 }, 'Stock updated') });
    const result = await client.bulkUpdateStock([{ product_id: 'p1', stock: 10 }, { product_id: 'p2', stock: 0 }, { product_id: 'gone', stock: 1 }]);
    expect(result).toEqual({ ok: true, value: { updated: 2, failed: 1, message: 'Stock updated' } });
    expect(fixture.last().rawBody).toBe('{"updates":[{"product_id":"p1","stock":10},{"product_id":"p2","stock":0},{"product_id":"gone","stock":1}]}');
  });
});

describe('users', () => {
  it('lists users with filters; a stray password in a reply is dropped', async () => {
    fixture.reply('GET /v1/users', { body: list([userRow('u1', { password: 'hunter2' }), userRow('u2', { avatar: undefined, role: 'admin' })], { page: 1, limit: 50, total: 2, pages: 1 }) });
    const result = await client.listUsers({ page: 1, limit: 50, role: 'admin', status: 'suspended', search: 'a@b' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [u1, u2] = result.value.items;
    expect(u1?.email).toBe('u1@example.com');
    expect(u1 !== undefined && 'password' in u1).toBe(false);
    expect(u2?.avatar).toBeUndefined();
    expect(u2?.role).toBe('admin');
    expect(fixture.last().query).toEqual({ page: '1', limit: '50', role: 'admin', status: 'suspended', search: 'a@b' });
  });

  it('gets a user', async () => {
    fixture.reply('GET /v1/users/u1', { body: single(userRow('u1', { avatar: null })) });
    const result = await client.getUser('u1');
    expect(result.ok && result.value.name).toBe('User u1');
    expect(result.ok && result.value.avatar).toBeUndefined();
  });

  it('creates a user, sending the password', async () => {
    fixture.reply('POST /v1/users', { status: 201, body: single(userRow('u3', { role: 'viewer' }), 'User created') });
    const result = await client.createUser({ name: 'Ann', email: 'ann@example.com', role: 'viewer', password: 's3cret!' });
    expect(result.ok && result.value.record.status).toBe('active');
    expect(result.ok && result.value.message).toBe('User created');
    expect(fixture.last().rawBody).toBe('{"name":"Ann","email":"ann@example.com","role":"viewer","password":"s3cret!"}');
    expect(fixture.last().headers['content-type']).toBe('application/json');
  });

  it('patches a user', async () => {
    fixture.reply('PATCH /v1/users/u1', { body: single(userRow('u1', { status: 'inactive' }), 'User updated') });
    const result = await client.updateUser('u1', { status: 'inactive', email: 'new@example.org' });
    expect(result.ok && result.value.record.status).toBe('inactive');
    expect(fixture.last().rawBody).toBe('{"email":"new@example.org","status":"inactive"}');
  });

  it('deletes a user', async () => {
    fixture.reply('DELETE /v1/users/u1', { body: { success: true, message: 'User deleted' } });
    expect(await client.deleteUser('u1')).toEqual({ ok: true, value: { message: 'User deleted' } });
    expect(fixture.last().path).toBe('/v1/users/u1');
  });
});

describe('page walkers', () => {
  it('walks 3 pages, passing the asked-for status and limit on every page', async () => {
    const pg = (page: number, ids: string[]): void => {
      fixture.reply('GET /v1/products', { body: list(ids.map((id) => productRow(id, { status: 'active' })), { page, limit: 2, total: 5, pages: 3 }) });
    };
    pg(1, ['a', 'b']);
    pg(2, ['c', 'd']);
    pg(3, ['e']);
    const seen: Product[] = [];
    for await (const product of client.allProducts({ status: 'active', limit: 2 })) seen.push(product);
    expect(seen.map((p) => p.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(fixture.requests.map((r) => r.rawQuery)).toEqual(['page=1&limit=2&status=active', 'page=2&limit=2&status=active', 'page=3&limit=2&status=active']);
  });

  it('asks for 100 per page by default, sends no status unless asked, and stops on an empty page', async () => {
    fixture.reply('GET /v1/products', { body: list([productRow('a')], { page: 1, limit: 100, total: 9, pages: 9 }) });
    fixture.reply('GET /v1/products', { body: list([], { page: 2, limit: 100, total: 9, pages: 9 }) });
    const ids: string[] = [];
    for await (const product of client.allProducts()) ids.push(product.id);
    expect(ids).toEqual(['a']);
    expect(fixture.requests.map((r) => r.query)).toEqual([{ limit: '100', page: '1' }, { limit: '100', page: '2' }]);
  });

  it('walks users and throws the VenueError of a failed page after yielding the earlier records', async () => {
    fixture.reply('GET /v1/users', { body: list([userRow('u1'), userRow('u2')], { page: 1, limit: 100, total: 300, pages: 3 }) });
    fixture.reply('GET /v1/users', { status: 503, body: 'upstream down' });
    const seen: User[] = [];
    let thrown: unknown;
    try {
      for await (const user of client.allUsers({ role: 'viewer' })) seen.push(user);
    } catch (error: unknown) {
      thrown = error;
    }
    expect(seen.map((u) => u.id)).toEqual(['u1', 'u2']);
    expect(thrown).toBeInstanceOf(VenueError);
    expect((thrown as VenueError).kind).toBe('unknown-status');
    expect((thrown as VenueError).retryable).toBe(true);
    expect(fixture.requests.map((r) => r.query['page'])).toEqual(['1', '2']);
    expect(fixture.requests.every((r) => r.query['role'] === 'viewer' && r.query['limit'] === '100')).toBe(true);
  });

  it('throws an invalid filter from the first next() without sending', async () => {
    const walk = client.allUsers({ limit: 101 });
    await expect(walk.next()).rejects.toMatchObject({ kind: 'invalid-request', rule: 'catalog-page-limit' });
    expect(fixture.requests).toHaveLength(0);
  });
});

describe('service errors', () => {
  it('400 invalid_request → rejected with code and field', async () => {
    fixture.reply('POST /v1/products', { status: 400, body: failure('invalid_request', 'price must be positive', 'price') });
    const error = expectError(await client.createProduct({ name: 'X', sku: 'X', price: dec(1) }));
    expect(error).toMatchObject({ kind: 'rejected', code: 'invalid_request', field: 'price', httpStatus: 400, endpoint: 'POST /v1/products', retryable: false });
  });

  it('404 not_found → rejected, labelled with the path template', async () => {
    fixture.reply('GET /v1/products/nope', { status: 404, body: failure('not_found', 'Product not found') });
    const error = expectError(await client.getProduct('nope'));
    expect(error).toMatchObject({ kind: 'rejected', code: 'not_found', httpStatus: 404, endpoint: 'GET /v1/products/{product_id}' });
    expect(error.field).toBeUndefined();
  });

  it('409 duplicate_sku and duplicate_email → rejected', async () => {
    fixture.reply('PATCH /v1/products/p1', { status: 409, body: failure('duplicate_sku', 'SKU exists', 'sku') });
    expect(expectError(await client.updateProduct('p1', { sku: 'TAKEN' }))).toMatchObject({ kind: 'rejected', code: 'duplicate_sku', field: 'sku', httpStatus: 409 });
    fixture.reply('POST /v1/users', { status: 409, body: failure('duplicate_email', 'Email exists') });
    expect(expectError(await client.createUser({ name: 'A', email: 'a@b.co', role: 'user', password: 'p' }))).toMatchObject({
      kind: 'rejected', code: 'duplicate_email', httpStatus: 409, endpoint: 'POST /v1/users',
    });
  });

  it('500 → unknown-status, retryable, with or without a failure envelope', async () => {
    fixture.reply('DELETE /v1/users/u1', { status: 500, body: failure('internal', 'boom') });
    expect(expectError(await client.deleteUser('u1'))).toMatchObject({ kind: 'unknown-status', retryable: true, httpStatus: 500, code: 'internal' });
    fixture.reply('POST /v1/products/bulk/stock', { status: 502, body: '<html>bad gateway</html>' });
    expect(expectError(await client.bulkUpdateStock([{ product_id: 'p', stock: 1 }]))).toMatchObject({ kind: 'unknown-status', retryable: true, httpStatus: 502 });
  });

  it('a wrong token → 401 rejected', async () => {
    const stranger = new CatalogClient({ baseUrl: fixture.url, token: 'wrong', timeoutMs: 2000 });
    expect(expectError(await stranger.getUser('u1'))).toMatchObject({ kind: 'rejected', httpStatus: 401, code: 'unauthorized' });
    expect(fixture.last().headers['authorization']).toBe('Bearer wrong');
  });

  it('a 4xx without an envelope → http', async () => {
    const error = expectError(await client.getUser('no-route-queued'));
    expect(error).toMatchObject({ kind: 'http', httpStatus: 404 });
  });

  it('non-JSON and wrongly shaped replies → malformed-response naming the field', async () => {
    fixture.reply('GET /v1/products/p1', { body: 'not json' });
    expect(expectError(await client.getProduct('p1'))).toMatchObject({ kind: 'malformed-response', field: '(root)', retryable: false });
    fixture.reply('GET /v1/products/p1', { body: single(productRow('p1', { price: 'cheap' })) });
    expect(expectError(await client.getProduct('p1'))).toMatchObject({ kind: 'malformed-response', field: 'data.price' });
    fixture.reply('GET /v1/products/p1', { body: single(productRow('p1', { stock: 1.5 })) });
    expect(expectError(await client.getProduct('p1'))).toMatchObject({ kind: 'malformed-response', field: 'data.stock' });
    fixture.reply('GET /v1/products/p1', { body: single(productRow('p1', { created_at: 'yesterday' })) });
    expect(expectError(await client.getProduct('p1'))).toMatchObject({ kind: 'malformed-response', field: 'data.created_at' });
    fixture.reply('GET /v1/users', { body: { success: true, data: [userRow('u1')] } });
    expect(expectError(await client.listUsers())).toMatchObject({ kind: 'malformed-response', field: 'pagination' });
    // A record of a list that stratd cannot read is skipped and reported; the page holds the others.
    fixture.reply('GET /v1/users', { body: list([userRow('u1', { role: 'owner' }), userRow('u2')], { page: 1, limit: 20, total: 2, pages: 1 }) });
    const skipped: SkippedRows[] = [];
    const watching = client.skippedRows$.subscribe((s) => skipped.push(s));
    const users = await client.listUsers();
    watching.unsubscribe();
    expect(users.ok && users.value.items.map((u) => u.id)).toEqual(['u2']);
    expect(skipped.map((s) => s.rows.map((r) => [s.endpoint, r.list, r.index, r.row, r.field]))).toEqual([[['GET /v1/users', 'data', 0, 'id=u1', 'role']]]);
    fixture.reply('DELETE /v1/products/p1', { body: { success: true } });
    expect(expectError(await client.deleteProduct('p1'))).toMatchObject({ kind: 'malformed-response', field: 'message' });
    fixture.reply('GET /v1/users/u1', { status: 400, body: { success: false, error: { message: 'no code' } } });
    expect(expectError(await client.getUser('u1'))).toMatchObject({ kind: 'malformed-response', field: 'error.code', httpStatus: 400 });
  });

  it('a timeout or a refused connection → unknown-status', async () => {
    const impatient = new CatalogClient({ baseUrl: fixture.url, token: fixture.token, timeoutMs: 100 });
    fixture.reply('GET /v1/users/slow', { delayMs: 500, body: single(userRow('slow')) });
    expect(expectError(await impatient.getUser('slow'))).toMatchObject({ kind: 'unknown-status', retryable: true });
    const nowhere = new CatalogClient({ baseUrl: 'http://127.0.0.1:1', token: 't', timeoutMs: 1000 });
    expect(expectError(await nowhere.getUser('u1'))).toMatchObject({ kind: 'unknown-status', retryable: true, endpoint: 'GET /v1/users/{user_id}' });
  });
});

describe('local validation (nothing is sent)', () => {
  const cases: ReadonlyArray<readonly [string, () => Promise<{ ok: true; value: unknown } | { ok: false; error: VenueError }>, string, string | undefined]> = [
    ['limit 0', () => client.listProducts({ limit: 0 }), 'catalog-page-limit', 'limit'],
    ['limit 101', () => client.listUsers({ limit: 101 }), 'catalog-page-limit', 'limit'],
    ['limit 2.5', () => client.listProducts({ limit: 2.5 }), 'catalog-page-limit', 'limit'],
    ['page 0', () => client.listProducts({ page: 0 }), 'catalog-page', 'page'],
    ['page 1.5', () => client.listUsers({ page: 1.5 }), 'catalog-page', 'page'],
    ['product status enum', () => client.listProducts({ status: 'deleted' as ProductStatus }), 'status-enum', 'status'],
    ['user status enum', () => client.listUsers({ status: 'active ' as 'active' }), 'status-enum', 'status'],
    ['user role enum', () => client.listUsers({ role: 'root' as UserRole }), 'role-enum', 'role'],
    ['negative min_price', () => client.listProducts({ min_price: dec(-1) }), 'price-filter', 'min_price'],
    ['min above max', () => client.listProducts({ min_price: dec(10), max_price: dec(5) }), 'price-filter', 'min_price'],
    ['empty product id (get)', () => client.getProduct(''), 'id-required', 'product_id'],
    ['blank product id (delete)', () => client.deleteProduct('  '), 'id-required', 'product_id'],
    ['empty product id (patch)', () => client.updateProduct('', { stock: 1 }), 'id-required', 'product_id'],
    ['empty user id (get)', () => client.getUser(''), 'id-required', 'user_id'],
    ['empty user id (patch)', () => client.updateUser('', { name: 'x' }), 'id-required', 'user_id'],
    ['empty user id (delete)', () => client.deleteUser(''), 'id-required', 'user_id'],
    ['zero price on create', () => client.createProduct({ name: 'n', sku: 's', price: dec(0) }), 'price-positive', 'price'],
    ['negative price on patch', () => client.updateProduct('p1', { price: dec('-0.01') }), 'price-positive', 'price'],
    ['NaN price', () => client.createProduct({ name: 'n', sku: 's', price: dec(NaN) }), 'price-positive', 'price'],
    ['missing price', () => client.createProduct({ name: 'n', sku: 's', price: undefined as unknown as Decimal }), 'price-positive', 'price'],
    ['empty name on create', () => client.createProduct({ name: '', sku: 's', price: dec(1) }), 'mandatory-parameter', 'name'],
    ['empty sku on create', () => client.createProduct({ name: 'n', sku: ' ', price: dec(1) }), 'mandatory-parameter', 'sku'],
    ['negative stock on create', () => client.createProduct({ name: 'n', sku: 's', price: dec(1), stock: -1 }), 'stock-non-negative-integer', 'stock'],
    ['fractional stock on patch', () => client.updateProduct('p1', { stock: 1.5 }), 'stock-non-negative-integer', 'stock'],
    ['bad currency', () => client.createProduct({ name: 'n', sku: 's', price: dec(1), currency: 'usd' }), 'currency-code', 'currency'],
    ['product status on create', () => client.createProduct({ name: 'n', sku: 's', price: dec(1), status: 'live' as ProductStatus }), 'status-enum', 'status'],
    ['empty product patch', () => client.updateProduct('p1', {}), 'patch-empty', undefined],
    ['empty bulk', () => client.bulkUpdateStock([]), 'bulk-updates-empty', 'updates'],
    ['bulk negative stock', () => client.bulkUpdateStock([{ product_id: 'p1', stock: 1 }, { product_id: 'p2', stock: -3 }]), 'stock-non-negative-integer', 'updates[1].stock'],
    ['bulk empty id', () => client.bulkUpdateStock([{ product_id: '', stock: 1 }]), 'id-required', 'updates[0].product_id'],
    ['bad email on create', () => client.createUser({ name: 'n', email: 'not-an-email', role: 'user', password: 'p' }), 'email-format', 'email'],
    ['email without domain dot', () => client.createUser({ name: 'n', email: 'a@b', role: 'user', password: 'p' }), 'email-format', 'email'],
    ['bad email on patch', () => client.updateUser('u1', { email: 'a b@c.de' }), 'email-format', 'email'],
    ['role on create', () => client.createUser({ name: 'n', email: 'a@b.co', role: 'owner' as UserRole, password: 'p' }), 'role-enum', 'role'],
    ['empty password', () => client.createUser({ name: 'n', email: 'a@b.co', role: 'user', password: '' }), 'mandatory-parameter', 'password'],
    ['empty user name', () => client.createUser({ name: '', email: 'a@b.co', role: 'user', password: 'p' }), 'mandatory-parameter', 'name'],
    ['user status on patch', () => client.updateUser('u1', { status: 'banned' as 'active' }), 'status-enum', 'status'],
    ['role on patch', () => client.updateUser('u1', { role: 'god' as UserRole }), 'role-enum', 'role'],
    ['empty user patch', () => client.updateUser('u1', {}), 'patch-empty', undefined],
  ];

  it.each(cases)('%s', async (_name, call, rule, field) => {
    const error = expectError(await call());
    expect(error.kind).toBe('invalid-request');
    expect(error.rule).toBe(rule);
    expect(error.field).toBe(field);
    expect(error.retryable).toBe(false);
    expect(fixture.requests).toHaveLength(0);
  });

  it('refuses to send without a token', async () => {
    const anonymous = new CatalogClient({ baseUrl: fixture.url, token: '' });
    expect(expectError(await anonymous.getProduct('p1'))).toMatchObject({ kind: 'invalid-request', rule: 'credentials' });
    expect(fixture.requests).toHaveLength(0);
  });
});
