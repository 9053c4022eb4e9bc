import { VirtualClock } from '../../../src/core/virtual-time.js';
import { CatalogClient } from '../../../src/catalog/client.js';
import type { User } from '../../../src/catalog/schemas.js';
import type { UserQuery } from '../../../src/protocol/catalog/types.js';
import type { VenueError } from '../../../src/venue/venue-error.js';
import { createCatalogRouter, SimCatalog } from '../../../src/sim/catalog/index.js';
import { CatalogLoopback } from './catalog-loopback.js';

/** The project's real catalog client against the simulated catalog: the user endpoints. */

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

async function collect(walk: AsyncGenerator<User, void, undefined>): Promise<string[]> {
  const seen: string[] = [];
  for await (const u of walk) seen.push(u.id);
  return seen;
}

describe('listing users', () => {
  it('lists every status by default (no status default)', async () => {
    const page = value(await client.listUsers());
    expect(page.pagination).toEqual({ page: 1, limit: 20, total: 6, pages: 1 });
    expect(page.items.map((u) => u.status)).toEqual(['active', 'active', 'active', 'inactive', 'suspended', 'inactive']);
    expect(page.items[0]).toEqual({
      id: 'usr_000001', name: 'Alice Nguyen', email: 'alice.nguyen@example.com', role: 'admin', status: 'active',
      avatar: 'https://cdn.example.com/avatars/alice.png', created_at: '2025-01-01T00:00:00.000Z', updated_at: '2025-01-01T00:00:00.000Z',
    });
  });

  it('applies role, status and search filters', async () => {
    const list = async (q: UserQuery): Promise<string[]> => ids(value(await client.listUsers(q)).items);
    expect(await list({ role: 'admin' })).toEqual(['usr_000001']);
    expect(await list({ role: 'viewer' })).toEqual(['usr_000003', 'usr_000006']);
    expect(await list({ status: 'active' })).toEqual(['usr_000001', 'usr_000002', 'usr_000003']);
    expect(await list({ status: 'suspended' })).toEqual(['usr_000005']);
    expect(await list({ role: 'user', status: 'inactive' })).toEqual(['usr_000004']);
    expect(await list({ search: 'okafor' })).toEqual(['usr_000004']);
    expect(await list({ search: 'carol.smith@' })).toEqual(['usr_000003']);
    expect(await list({ search: 'nobody' })).toEqual([]);
  });

  it('pages, and allUsers walks every page', async () => {
    const second = value(await client.listUsers({ page: 2, limit: 4 }));
    expect(ids(second.items)).toEqual(['usr_000005', 'usr_000006']);
    expect(second.pagination).toEqual({ page: 2, limit: 4, total: 6, pages: 2 });
    expect(await collect(client.allUsers({ limit: 2 }))).toHaveLength(6);
    expect(await collect(client.allUsers({ status: 'inactive', limit: 1 }))).toEqual(['usr_000004', 'usr_000006']);
    for (let i = 0; i < 200; i += 1) value(catalog.createUser({ name: `Load ${i}`, email: `load${i}@example.com`, role: 'viewer', password: 'pw' }));
    const viewers = await collect(client.allUsers({ role: 'viewer' }));
    expect(viewers).toHaveLength(202);
    expect(viewers.at(-1)).toBe('usr_000206');
  });
});

describe('single users', () => {
  it('gets one; a user without an avatar has none', async () => {
    const carol = value(await client.getUser('usr_000003'));
    expect(carol).toMatchObject({ name: 'Carol Smith', role: 'viewer' });
    expect(carol.avatar).toBeUndefined();
    expect(failure(await client.getUser('usr_000099'))).toMatchObject({ kind: 'rejected', code: 'not_found', httpStatus: 404 });
  });

  it('creates an active user from name, email, role and password', async () => {
    clock.advanceBy(2_000);
    const saved = value(await client.createUser({ name: 'Grace Hopper', email: 'grace@example.com', role: 'viewer', password: 'cobol-1959' }));
    expect(saved.message).toBe('User created');
    expect(saved.record).toEqual({
      id: 'usr_000007', name: 'Grace Hopper', email: 'grace@example.com', role: 'viewer', status: 'active', avatar: undefined,
      created_at: '2026-01-01T00:00:02.000Z', updated_at: '2026-01-01T00:00:02.000Z',
    });
    expect(value(await client.getUser('usr_000007')).email).toBe('grace@example.com');
  });

  it('409 duplicate_email (case-insensitive) on create and on update', async () => {
    expect(failure(await client.createUser({ name: 'B', email: 'BOB.MARTINEZ@example.com', role: 'user', password: 'pw' }))).toMatchObject({
      kind: 'rejected', code: 'duplicate_email', field: 'email', httpStatus: 409,
    });
    expect(failure(await client.updateUser('usr_000004', { email: 'alice.nguyen@example.com' }))).toMatchObject({ code: 'duplicate_email', httpStatus: 409 });
  });

  it('patches and answers with the whole updated user', async () => {
    clock.advanceBy(30_000);
    const saved = value(await client.updateUser('usr_000004', { status: 'active', role: 'admin', avatar: 'https://cdn.example.com/avatars/dan.png' }));
    expect(saved.message).toBe('User updated');
    expect(saved.record).toEqual({
      id: 'usr_000004', name: 'Dan Okafor', email: 'dan.okafor@example.com', role: 'admin', status: 'active', avatar: 'https://cdn.example.com/avatars/dan.png',
      created_at: '2025-10-03T00:00:00.000Z', updated_at: '2026-01-01T00:00:30.000Z',
    });
    expect(value(await client.getUser('usr_000004'))).toEqual(saved.record);
    expect(failure(await client.updateUser('usr_000404', { name: 'Nobody' })).code).toBe('not_found');
  });

  it('deletes permanently: then 404', async () => {
    expect(value(await client.deleteUser('usr_000005'))).toEqual({ message: 'User deleted' });
    expect(failure(await client.getUser('usr_000005'))).toMatchObject({ code: 'not_found', httpStatus: 404 });
    expect(failure(await client.deleteUser('usr_000005')).code).toBe('not_found');
    expect(value(await client.listUsers()).pagination.total).toBe(5);
  });

  it('a wrong token → 401', async () => {
    const stranger = new CatalogClient({ baseUrl: server.baseUrl, token: `${TOKEN}x`, timeoutMs: 2000 });
    expect(failure(await stranger.createUser({ name: 'M', email: 'm@example.com', role: 'admin', password: 'pw' }))).toMatchObject({ code: 'unauthorized', httpStatus: 401 });
    expect(value(await client.listUsers()).pagination.total).toBe(6);
  });
});
