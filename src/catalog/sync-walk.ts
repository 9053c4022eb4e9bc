import type { Result } from '../core/result.js';
import { err, ok } from '../core/result.js';
import { VenueError } from '../venue/venue-error.js';
import type { CatalogPage } from './pages.js';
import { walkPages } from './pages.js';

export type PageFetcher<T> = (page: number, limit: number) => Promise<Result<CatalogPage<T>, VenueError>>;

/** One walked list (e.g. products with status=draft) and what its pages said about its size. */
export interface WalkedList<T> {
  readonly items: readonly T[];
  /** Requests made. */
  readonly pages: number;
  /** True when every page gave the same `total` and exactly that many records came back. */
  readonly steady: boolean;
}

/**
 * Walks every page of one list (walkPages), watching `pagination.total` on each page: a list that
 * changes under an offset-paged walk may skip or repeat records, which the caller must not mistake
 * for deletions. A failed page is returned as its VenueError.
 */
export async function walkList<T>(fetch: PageFetcher<T>, limit: number): Promise<Result<WalkedList<T>, VenueError>> {
  const totals = new Set<number>();
  const items: T[] = [];
  let pages = 0;
  const observed = async (page: number): Promise<Result<CatalogPage<T>, VenueError>> => {
    const reply = await fetch(page, limit);
    pages += 1;
    if (reply.ok) totals.add(reply.value.pagination.total);
    return reply;
  };
  try {
    for await (const item of walkPages(observed)) items.push(item);
  } catch (error: unknown) {
    if (error instanceof VenueError) return err(error);
    throw error;
  }
  const [total] = totals;
  return ok({ items, pages, steady: totals.size === 1 && total === items.length });
}

/** The list's current `total`, from a one-record page. */
export async function listTotal<T>(fetch: PageFetcher<T>): Promise<Result<number, VenueError>> {
  const reply = await fetch(1, 1);
  return reply.ok ? ok(reply.value.pagination.total) : reply;
}
