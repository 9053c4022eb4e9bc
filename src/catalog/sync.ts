import type { Clock } from '../core/clock.js';
import { assertNever } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { Result } from '../core/result.js';
import { err, ok } from '../core/result.js';
import type { CatalogEvent } from '../model/catalog-events.js';
import type { CatalogEntity, CatalogMirror, MirrorDiff, MirrorRow, MirrorSnapshot } from '../model/catalog-mirror.js';
import type { VenueError } from '../venue/venue-error.js';
import type { CatalogClient } from './client.js';
import type { CatalogPage } from './pages.js';
import { productRow, userRow } from './sync-rows.js';
import type { PageFetcher } from './sync-walk.js';
import { listTotal, walkList } from './sync-walk.js';
import { CATALOG_MAX_LIMIT, PRODUCT_STATUSES } from '../protocol/catalog/types.js';

export interface CatalogSyncOptions {
  /** Only the two list endpoints are used. */
  readonly client: Pick<CatalogClient, 'listProducts' | 'listUsers'>;
  readonly mirror: CatalogMirror;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Records per page request; default 100 (the API's maximum). */
  readonly pageSize?: number;
  /** Complete walks to try while the catalog keeps changing under the walk; default 3. */
  readonly maxAttempts?: number;
}

export interface CatalogSyncReport {
  readonly startedAt: number;
  readonly finishedAt: number;
  /** Records mirrored after the run. */
  readonly products: number;
  readonly users: number;
  readonly changes: Readonly<Record<CatalogEntity, MirrorDiff>>;
  /** One catalog.changed per created, updated and deleted id (products first), then one catalog.synced. */
  readonly events: readonly CatalogEvent[];
  /** HTTP requests made, over all attempts. */
  readonly requests: number;
  readonly attempts: number;
}

/**
 * Why a run changed nothing:
 * - `fetch`: a page request failed (the mirror is untouched: a partial walk never deletes);
 * - `unstable`: every attempt saw the catalog change under the walk (totals moved, a record was
 *   listed twice), so no walk was a trustworthy snapshot.
 */
export type CatalogSyncError =
  | { readonly kind: 'fetch'; readonly list: string; readonly error: VenueError }
  | { readonly kind: 'unstable'; readonly attempts: number; readonly message: string };

export type CatalogSyncResult = Result<CatalogSyncReport, CatalogSyncError>;

interface CatalogList {
  readonly name: string;
  readonly entity: CatalogEntity;
  readonly fetch: PageFetcher<MirrorRow>;
}

type Attempt =
  | { readonly kind: 'done'; readonly snapshot: MirrorSnapshot; readonly requests: number }
  | { readonly kind: 'unstable'; readonly reason: string; readonly requests: number }
  | { readonly kind: 'fetch'; readonly list: string; readonly error: VenueError };

/**
 * Catalog sync (spec 002): mirrors every product of every status (the list endpoint shows only
 * active ones unless asked) and every user, then reports what was created, updated and deleted.
 *
 * Only a complete, steady walk reaches the mirror, in one transaction. One run at a time: `run()`
 * while a run is going returns that run's promise (the caller joins it; nothing is queued).
 */
export class CatalogSync {
  private readonly lists: readonly CatalogList[];
  private readonly pageSize: number;
  private readonly maxAttempts: number;
  private running: Promise<CatalogSyncResult> | undefined;

  constructor(private readonly options: CatalogSyncOptions) {
    const { client } = options;
    this.pageSize = options.pageSize ?? CATALOG_MAX_LIMIT;
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 3);
    this.lists = [
      ...PRODUCT_STATUSES.map(
        (status): CatalogList => ({
          name: `products status=${status}`,
          entity: 'product',
          fetch: async (page, limit) => rows(await client.listProducts({ status, page, limit }), productRow),
        }),
      ),
      { name: 'users', entity: 'user', fetch: async (page, limit) => rows(await client.listUsers({ page, limit }), userRow) },
    ];
  }

  /** True while a run is going. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  run(): Promise<CatalogSyncResult> {
    if (this.running !== undefined) return this.running;
    const run = this.execute().finally(() => {
      this.running = undefined;
    });
    this.running = run;
    return run;
  }

  private async execute(): Promise<CatalogSyncResult> {
    const { clock, logger, mirror } = this.options;
    const startedAt = clock.now();
    let requests = 0;
    for (let attempt = 1; ; attempt += 1) {
      const outcome = await this.walk();
      switch (outcome.kind) {
        case 'fetch':
          logger.warn({ list: outcome.list, error: outcome.error.message, attempt }, 'catalog sync failed; the mirror is unchanged');
          return err({ kind: 'fetch', list: outcome.list, error: outcome.error });
        case 'unstable':
          requests += outcome.requests;
          logger.info({ reason: outcome.reason, attempt }, 'the catalog changed during the walk; walking again');
          if (attempt === this.maxAttempts) {
            logger.warn({ reason: outcome.reason, attempts: attempt }, 'catalog sync gave up: the catalog kept changing; the mirror is unchanged');
            return err({ kind: 'unstable', attempts: attempt, message: outcome.reason });
          }
          break;
        case 'done': {
          requests += outcome.requests;
          const finishedAt = clock.now();
          const changes = mirror.applySnapshot(outcome.snapshot, finishedAt);
          const products = mirror.count('product');
          const users = mirror.count('user');
          const report: CatalogSyncReport = {
            startedAt,
            finishedAt,
            products,
            users,
            changes,
            events: catalogEvents(changes, finishedAt, products, users),
            requests,
            attempts: attempt,
          };
          const { created, updated, deleted } = totals(changes);
          logger.info({ products: report.products, users: report.users, created, updated, deleted, requests, attempts: attempt }, 'catalog sync done');
          return ok(report);
        }
        default:
          return assertNever(outcome, 'catalog walk outcome');
      }
    }
  }

  /** One complete walk of every list, then a re-check of each list's total. */
  private async walk(): Promise<Attempt> {
    const collected: Record<CatalogEntity, MirrorRow[]> = { product: [], user: [] };
    const counts: number[] = [];
    let requests = 0;
    for (const list of this.lists) {
      const walked = await walkList(list.fetch, this.pageSize);
      if (!walked.ok) return { kind: 'fetch', list: list.name, error: walked.error };
      requests += walked.value.pages;
      if (!walked.value.steady) return { kind: 'unstable', reason: `${list.name} changed while its pages were read`, requests };
      collected[list.entity].push(...walked.value.items);
      counts.push(walked.value.items.length);
    }
    for (const entity of ['product', 'user'] as const) {
      const twice = firstDuplicate(collected[entity]);
      if (twice !== undefined) return { kind: 'unstable', reason: `${entity} ${twice} was listed twice`, requests };
    }
    // A record that moved between lists (a status change) after its new list was read is in none of them.
    for (const [i, list] of this.lists.entries()) {
      const total = await listTotal(list.fetch);
      if (!total.ok) return { kind: 'fetch', list: list.name, error: total.error };
      requests += 1;
      if (total.value !== counts[i]) return { kind: 'unstable', reason: `${list.name} holds ${total.value} records, the walk saw ${counts[i]}`, requests };
    }
    return { kind: 'done', snapshot: collected, requests };
  }
}

function rows<T>(reply: Result<CatalogPage<T>, VenueError>, toRow: (record: T) => MirrorRow): Result<CatalogPage<MirrorRow>, VenueError> {
  return reply.ok ? ok({ items: reply.value.items.map(toRow), pagination: reply.value.pagination }) : reply;
}

function firstDuplicate(rows: readonly MirrorRow[]): string | undefined {
  const seen = new Set<string>();
  for (const { id } of rows) {
    if (seen.has(id)) return id;
    seen.add(id);
  }
  return undefined;
}

function totals(changes: Readonly<Record<CatalogEntity, MirrorDiff>>): { created: number; updated: number; deleted: number } {
  const { product, user } = changes;
  return {
    created: product.created.length + user.created.length,
    updated: product.updated.length + user.updated.length,
    deleted: product.deleted.length + user.deleted.length,
  };
}

function catalogEvents(changes: Readonly<Record<CatalogEntity, MirrorDiff>>, time: number, products: number, users: number): CatalogEvent[] {
  const events: CatalogEvent[] = [];
  for (const entity of ['product', 'user'] as const) {
    const diff = changes[entity];
    for (const id of diff.created) events.push({ type: 'catalog.changed', time, entity, change: 'created', id });
    for (const id of diff.updated) events.push({ type: 'catalog.changed', time, entity, change: 'updated', id });
    for (const id of diff.deleted) events.push({ type: 'catalog.changed', time, entity, change: 'deleted', id });
  }
  events.push({ type: 'catalog.synced', time, products, users, ...totals(changes) });
  return events;
}
