import type { z } from 'zod';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { accountInfoSchema, balanceItems, positionInfoSchema, positionItem } from '../stream/frames/account-frames.js';
import type { FrameContext, StreamAccountItem, UserStreamFrame, UserStreamFrameError } from '../stream/frames/frame-types.js';
import { executionReportSchema, orderItem, ticketItem, ticketSchema } from '../stream/frames/order-frames.js';
import { planItem, planReportSchema, willExpireNotice, willExpireSchema } from '../stream/frames/plan-frames.js';
import { parseWireJson } from '../../protocol/wire-json.js';
import { parseWire } from '../wire/schema.js';
import { redactSecretText } from '../../core/secret-text.js';

export type { FillTicket, FrameContext, ListenKeyWillExpire, StreamAccountItem, UserStreamFrame, UserStreamFrameError } from '../stream/frames/frame-types.js';
export { toOrderFilled } from '../stream/frames/frame-types.js';
export { positionSideOf } from '../stream/frames/order-frames.js';

/**
 * One inbound frame of the user data stream (document 001 "Events", API-NOTES §7) as model values.
 * Account, position, order and trade events come as JSON arrays of objects keyed by `e`; plan reports and
 * the expiry notice as bare objects keyed by `eventType`; heartbeat replies as `{"pong":n}`; errors as
 * `{"code":…,"desc":…}`. 64-bit integers survive (lossless JSON); quantities are contracts. Never throws:
 * a frame it cannot read is an error value.
 */
export function parseUserStreamFrame(text: string, context: FrameContext = {}): Result<UserStreamFrame, UserStreamFrameError> {
  let value: unknown;
  try {
    value = parseWireJson(text);
  } catch {
    return err({ kind: 'not-json', message: 'the frame is not JSON' });
  }
  if (Array.isArray(value)) return arrayFrame(value, context);
  if (!isRecord(value)) return err({ kind: 'unknown-event', message: 'expected a JSON array or object' });
  if ('eventType' in value) return objectEvent(value, context);
  if ('pong' in value) return ok({ kind: 'pong', value: textOf(value['pong']) });
  if ('code' in value) return ok({ kind: 'error', code: textOf(value['code']), message: redactSecretText(textOf(value['desc'] ?? value['msg'] ?? '')) });
  return err({ kind: 'unknown-event', message: 'an object without eventType, pong or code' });
}

function arrayFrame(elements: readonly unknown[], context: FrameContext): Result<UserStreamFrame, UserStreamFrameError> {
  const items: StreamAccountItem[] = [];
  for (const element of elements) {
    const event = isRecord(element) && typeof element['e'] === 'string' ? textOf(element['e']) : undefined;
    if (event === undefined) return err({ kind: 'unknown-event', message: 'an array element without e' });
    const read = arrayEvent(event, element, context);
    if (!read.ok) return read;
    items.push(...read.value);
  }
  return ok({ kind: 'account', items });
}

function arrayEvent(event: string, body: unknown, context: FrameContext): Result<readonly StreamAccountItem[], UserStreamFrameError> {
  switch (event) {
    case 'outboundContractAccountInfo':
      return read(accountInfoSchema, body, event, context, balanceItems);
    case 'outboundContractPositionInfo':
      return read(positionInfoSchema, body, event, context, (p) => [positionItem(p)]);
    case 'contractExecutionReport':
      return read(executionReportSchema, body, event, context, (o) => orderItem(o, context));
    case 'ticketInfo':
      return read(ticketSchema, body, event, context, (t) => [ticketItem(t)]);
    default:
      return err({ kind: 'unknown-event', event, message: `unknown event ${event}` });
  }
}

function objectEvent(body: Record<string, unknown>, context: FrameContext): Result<UserStreamFrame, UserStreamFrameError> {
  const event = textOf(body['eventType']);
  switch (event) {
    case 'planExecutionReport':
      return read(planReportSchema, body, event, context, (p): UserStreamFrame => ({ kind: 'account', items: [planItem(p)] }));
    case 'listenKeyWillExpire':
      return read(willExpireSchema, body, event, context, (n): UserStreamFrame => ({ kind: 'willExpire', notice: willExpireNotice(n) }));
    default:
      return err({ kind: 'unknown-event', event, message: `unknown event ${event}` });
  }
}

/** Validates with the shared wire helpers, then maps; `undefined` from the mapper means a value the model has no word for. */
function read<S extends z.ZodType, T>(
  schema: S,
  body: unknown,
  event: string,
  context: FrameContext,
  map: (value: z.output<S>) => T | undefined,
): Result<T, UserStreamFrameError> {
  const parsed = parseWire(schema, body, event, (skipped) => context.onSkipped?.(skipped));
  if (!parsed.ok) return err({ kind: 'invalid', event, ...(parsed.error.field === undefined ? {} : { field: parsed.error.field }), message: parsed.error.message });
  const mapped = map(parsed.value);
  return mapped === undefined ? err({ kind: 'invalid', event, message: `${event}: a value the model does not know` }) : ok(mapped);
}

/** Longest text a frame's field keeps in a frame or an error (the rest of an oversized value is cut). */
const MAX_TEXT = 200;

/**
 * A wire value as text: a scalar as itself (cut at MAX_TEXT), an array or object as its kind only. Never
 * String() or JSON on those: `toString` may be the frame's own key (`{"toString":1}`), and a value nested
 * 100,000 deep overflows the stack; either would throw.
 */
function textOf(value: unknown): string {
  if (typeof value === 'object' && value !== null) return Array.isArray(value) ? '[array]' : '[object]';
  const text = String(value);
  return text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT)}…`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
