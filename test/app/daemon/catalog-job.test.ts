import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CronJobs } from '../../../src/app/daemon/cron-scheduler.js';
import type { Daemon } from '../../../src/app/daemon/daemon.js';
import { daemonJobs } from '../../../src/app/daemon/jobs.js';
import { CatalogSync } from '../../../src/catalog/sync.js';
import { dec } from '../../../src/core/decimal.js';
import { silentLogger } from '../../../src/core/logger.js';
import { VirtualClock } from '../../../src/core/virtual-time.js';
import type { CatalogMirror, JsonValue } from '../../../src/model/catalog-mirror.js';
import { StateStore } from '../../../src/store/state-file/state-store.js';
import { BTC, T0, value } from '../../sim/e2e/sim-harness.js';
import { BusRecorder } from './bus-recorder.js';
import { NEVER, paperYaml, startDaemon, writeConfig } from './daemon-harness.js';
import { Probe } from './probe-strategy.js';

/**
 * Catalog sync as the daemon's job runs it: the catalogSync job of daemon/jobs.ts, on the running
 * daemon's kernel and its catalog client (the embedded simulator's catalog in paper mode). The daemon
 * does not expose its own CronJobs, so the job is built here from the same wiring function with a
 * CatalogSync of the test's own (mirroring into an in-memory store) and run by hand.
 */
let dir: string;
let clock: VirtualClock;
let daemon: Daemon | undefined;
let store: StateStore;
let mirror: CatalogMirror;
let jobs: CronJobs;
let bus: BusRecorder;
let probe: Probe;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-daemon-catalog-'));
  clock = new VirtualClock(T0);
  probe = new Probe('probe', [BTC]);
  daemon = await startDaemon(writeConfig(dir, 'paper.yml', paperYaml(join(dir, 'state'))), clock, [probe.instance()]);
  const catalog = daemon.venue.catalog;
  if (catalog === undefined) throw new Error('paper mode has the embedded simulator’s catalog');
  store = StateStore.inMemory();
  mirror = store.catalogMirror();
  const catalogSync = new CatalogSync({ client: catalog, mirror, clock, logger: silentLogger, pageSize: 5 });
  jobs = daemonJobs({
    schedules: { listenKeyKeepalive: NEVER, exchangeInfoRefresh: NEVER, reconcile: NEVER, dailyReset: NEVER, catalogSync: NEVER },
    kernel: daemon.kernel,
    sessions: [],
    catalogSync,
    clock,
    logger: silentLogger,
  });
  bus = new BusRecorder(daemon);
});
afterEach(async () => {
  bus.stop();
  await jobs.stop();
  await daemon?.stop();
  daemon = undefined;
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function statusOf(data: JsonValue | undefined): JsonValue | undefined {
  return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as { readonly [key: string]: JsonValue | undefined })['status'] : undefined;
}

function running(): Daemon {
  if (daemon === undefined) throw new Error('no daemon');
  return daemon;
}

describe('the catalogSync job on the daemon', () => {
  it('mirrors every product of every status and every user, and puts created/updated/deleted on the bus on the next run', async () => {
    const d = running();
    const sim = d.venue.sim;
    if (sim === undefined) throw new Error('paper mode');
    expect((await jobs.runNow('catalogSync')).status).toBe('ok');
    const products = mirror.ids('product');
    const users = mirror.ids('user');
    expect(new Set(products.map((id) => statusOf(mirror.get('product', id)?.data)))).toEqual(new Set(['active', 'draft', 'archived']));
    expect(bus.of('catalog.changed').filter((e) => e.change === 'created')).toHaveLength(products.length + users.length);
    expect(bus.of('catalog.synced')).toEqual([{ type: 'catalog.synced', time: clock.now(), products: products.length, users: users.length, created: products.length + users.length, updated: 0, deleted: 0 }]);
    expect(bus.of('job.finished')).toEqual([{ type: 'job.finished', time: clock.now(), job: 'catalogSync', ok: true, detail: '' }]);

    // Changes through the catalog API, then the next run.
    const api = d.venue.catalog;
    if (api === undefined) throw new Error('paper mode');
    clock.advanceBy(1000);
    const created = value(await api.createProduct({ name: 'Daemon Lamp', sku: 'DAEMON-LAMP-1', price: dec('12.5'), status: 'draft' })).record.id;
    value(await api.updateProduct('prd_000002', { price: dec('379.95') }));
    value(await api.deleteProduct('prd_000005'));
    bus.events.length = 0;
    probe.events.length = 0;
    expect((await jobs.runNow('catalogSync')).status).toBe('ok');
    const changes = bus.of('catalog.changed').map((e) => `${e.entity} ${e.change} ${e.id}`);
    expect(changes).toEqual([`product created ${created}`, 'product updated prd_000002', 'product deleted prd_000005']);
    expect(bus.of('catalog.synced')).toMatchObject([{ created: 1, updated: 1, deleted: 1 }]);
    expect(mirror.get('product', 'prd_000002')?.data).toMatchObject({ price: '379.95' });
    // Strategies receive them like any bus event.
    await d.kernel.strategies.idle();
    expect(probe.of('catalog.changed').map((e) => `${e.entity} ${e.change} ${e.id}`)).toEqual(changes);

    // A failing run is reported on the bus; the daemon goes on, and the next run succeeds.
    sim.http.faults.update({ http5xxRate: 1 });
    const failed = await jobs.runNow('catalogSync');
    sim.http.faults.update({ http5xxRate: 0 });
    expect(failed.status).toBe('failed');
    expect(bus.of('job.finished').at(-1)).toMatchObject({ job: 'catalogSync', ok: false });
    expect(d.kernel.state).toBe('running');
    expect((await fetch(`${d.health.url}/healthz`)).status).toBe(200);
    expect((await jobs.runNow('catalogSync')).status).toBe('ok');
    expect(bus.of('catalog.synced').at(-1)).toMatchObject({ created: 0, updated: 0, deleted: 0 });
  });
});
