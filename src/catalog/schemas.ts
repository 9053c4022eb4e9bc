import { LosslessNumber } from 'lossless-json';
import { z } from 'zod';
import { decimal } from '../venue/wire/schema.js';
import { tolerantList } from '../venue/wire/tolerant-list.js';
import { PRODUCT_STATUSES, USER_ROLES, USER_STATUSES } from '../protocol/catalog/types.js';

/** Wire schemas of spec 002: records and the four envelopes. Unknown keys are dropped. */

/** ISO 8601 date-time with `Z` or an offset; kept as its text. */
const isoTimestamp = z.iso.datetime({ offset: true });

/**
 * A price: a JSON number (or, leniently, numeric text) parsed into an exact Decimal by the project's
 * `decimal` helper. Numbers a double cannot hold arrive as LosslessNumber (see parseCatalogJson).
 */
const price = z.preprocess((value) => (value instanceof LosslessNumber ? value.value : value), decimal);

const count = z.number().int().nonnegative();

export const productSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  sku: z.string(),
  price,
  currency: z.string(),
  stock: z.number().int(),
  category: z.string(),
  /** List rows may omit it. */
  images: z.array(z.string()).optional(),
  status: z.enum(PRODUCT_STATUSES),
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
});
export type Product = z.output<typeof productSchema>;

/** PATCH /v1/products/{id} answers with the updated fields plus id and updated_at only. */
export const productChangesSchema = productSchema.partial().extend({ id: z.string(), updated_at: isoTimestamp });
export type ProductChanges = z.output<typeof productChangesSchema>;

/** A user as returned: `password` is write-only, so a stray one in a reply is dropped here. */
export const userSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(USER_ROLES),
  status: z.enum(USER_STATUSES),
  /** Absent (or null) when the user has no avatar. */
  avatar: z
    .string()
    .nullish()
    .transform((v) => v ?? undefined),
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
});
export type User = z.output<typeof userSchema>;

export const paginationSchema = z.object({ page: count, limit: count, total: count, pages: count });
export type Pagination = z.output<typeof paginationSchema>;

export const bulkStockSchema = z.object({ updated: count, failed: count });

/** `{success: true, data: <record>, message?}` */
export function singleEnvelope<S extends z.ZodType>(data: S) {
  return z.object({ success: z.literal(true), data, message: z.string().optional() });
}

/**
 * `{success: true, data: [records], pagination}`. A record stratd cannot read is skipped and counted (the
 * page then holds fewer records than `total` says, so a sync walk is not steady and deletes nothing).
 */
export function listEnvelope<S extends z.ZodType>(row: S) {
  return z.object({ success: z.literal(true), data: tolerantList(row), pagination: paginationSchema });
}

/** `{success: true, message}` */
export const noDataEnvelope = z.object({ success: z.literal(true), message: z.string() });

/** `{success: false, error: {code, message, field?}}` */
export const failureEnvelope = z.object({
  success: z.literal(false),
  error: z.object({
    code: z.string(),
    message: z.string(),
    field: z
      .string()
      .nullish()
      .transform((v) => v ?? undefined),
  }),
});
export type CatalogFailure = z.output<typeof failureEnvelope>['error'];
