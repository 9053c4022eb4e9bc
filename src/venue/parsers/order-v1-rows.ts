import { orderStatus, orderTypeV1, priceTypeV1, sideV1, timeInForce } from '../../protocol/wire-enums.js';
import type { RegularOrderV1 } from './order-v1.js';
import type { Bad } from '../wire/plain.js';
import { BAD, isRecord, plainDecimal, plainEnum, plainEpochMs, plainId64, plainIntLike, plainOptDecimal, plainOptional, plainRows, plainText } from '../wire/plain.js';

/**
 * v1 regular order rows (a place, a cancel, open orders) read in one plain pass: the fields
 * `regularOrderV1Schema` reads, by the same rules, into the same values (`executedQty ?? executeQty`).
 * A row it does not take whole answers undefined, and the caller parses the reply with the schema,
 * which names what is wrong (and, for a list, skips and reports the bad rows: README "The exchange client").
 */
export function readRegularOrderV1(payload: unknown): RegularOrderV1 | undefined {
  if (!isRecord(payload)) return undefined;
  const order = readRow(payload);
  return order === BAD ? undefined : order;
}

/** The rows of a list of v1 regular orders (`regularOrderV1ListSchema`'s payload). */
export function readRegularOrdersV1(payload: unknown): RegularOrderV1[] | undefined {
  return plainRows(payload, readRow, false);
}

const typeOf = plainEnum(orderTypeV1.options);
const sideOf = plainEnum(sideV1.options);
const timeInForceOf = plainEnum(timeInForce.options);
const statusOf = plainEnum(orderStatus.options);
const priceTypeOf = plainEnum(priceTypeV1.options);

function readRow(row: Record<string, unknown>): RegularOrderV1 | Bad {
  const time = plainEpochMs(row['time']);
  const updateTime = plainEpochMs(row['updateTime']);
  const orderId = plainId64(row['orderId']);
  const clientOrderId = plainText(row['clientOrderId']);
  const symbol = row['symbol'];
  const price = plainDecimal(row['price']);
  const leverage = plainOptDecimal(row['leverage']);
  const origQty = plainDecimal(row['origQty']);
  const executedQty = plainOptDecimal(row['executedQty']);
  const executeQty = plainOptDecimal(row['executeQty']);
  const avgPrice = plainDecimal(row['avgPrice']);
  const marginLocked = plainOptDecimal(row['marginLocked']);
  const type = typeOf(row['type']);
  const side = sideOf(row['side']);
  const tif = timeInForceOf(row['timeInForce']);
  const status = statusOf(row['status']);
  const priceType = priceTypeOf(row['priceType']);
  const contractMultiplier = plainOptDecimal(row['contractMultiplier']);
  const triggerType = plainOptional(row['triggerType'], plainIntLike);
  const fallType = plainOptional(row['fallType'], plainIntLike);
  const activeStatus = plainOptional(row['activeStatus'], plainIntLike);
  const filled = executedQty === BAD || executeQty === BAD ? BAD : (executedQty ?? executeQty ?? BAD);
  if (
    time === BAD ||
    updateTime === BAD ||
    orderId === BAD ||
    clientOrderId === BAD ||
    typeof symbol !== 'string' ||
    price === BAD ||
    leverage === BAD ||
    origQty === BAD ||
    filled === BAD ||
    avgPrice === BAD ||
    marginLocked === BAD ||
    type === BAD ||
    side === BAD ||
    tif === BAD ||
    status === BAD ||
    priceType === BAD ||
    contractMultiplier === BAD ||
    triggerType === BAD ||
    fallType === BAD ||
    activeStatus === BAD
  ) {
    return BAD;
  }
  // Absent optional fields are no keys at all, as parseWire leaves the schema's value (it strips undefined keys).
  return {
    kind: 'regular',
    time,
    updateTime,
    orderId,
    clientOrderId,
    symbol,
    price,
    ...(leverage === undefined ? {} : { leverage }),
    origQty,
    avgPrice,
    ...(marginLocked === undefined ? {} : { marginLocked }),
    type,
    side,
    timeInForce: tif,
    status,
    priceType,
    ...(contractMultiplier === undefined ? {} : { contractMultiplier }),
    ...(triggerType === undefined ? {} : { triggerType }),
    ...(fallType === undefined ? {} : { fallType }),
    ...(activeStatus === undefined ? {} : { activeStatus }),
    executedQty: filled,
  } as RegularOrderV1;
}
