import type { Decimal } from '../../core/decimal.js';
import { orderedParams } from '../../core/ordered-params.js';
import type { Result } from '../../core/result.js';
import { err } from '../../core/result.js';
import { callParsed } from '../call-parsed.js';
import { ENDPOINTS, endpointLabel } from '../../protocol/endpoints.js';
import type { EndpointDef } from '../../protocol/endpoints.js';
import {
  accountLeverageListSchema,
  ackSchema,
  balanceFlowListSchema,
  balanceFlowV2ListSchema,
  futuresBalanceFlowListSchema,
  futuresBalanceListSchema,
  leverageResultSchema,
  marginTypeResultSchema,
  positionListSchema,
  subAccountListSchema,
} from '../parsers/account.js';
import type {
  AccountLeverage,
  Ack,
  BalanceFlow,
  BalanceFlowV2,
  FuturesBalance,
  FuturesBalanceFlow,
  LeverageResult,
  MarginTypeResult,
  Position,
  SubAccount,
} from '../parsers/account.js';
import { readFuturesBalances } from '../parsers/futures-balance-rows.js';
import type { RestTransport } from '../rest-transport.js';
import type { Check } from '../validate.js';
import { firstViolation, limitInRange, positive, positiveLeverage, requireText } from '../validate.js';
import { invalidRequest } from '../venue-error.js';
import type { VenueError } from '../venue-error.js';
import type { AccountType, Category, MarginType, PositionSide } from '../../protocol/wire-enums.js';
import { accountType, marginType as marginTypeEnum, positionSide } from '../../protocol/wire-enums.js';

export interface SubAccountQuery {
  readonly userId?: string;
  readonly email?: string;
}

export interface SubAccountTransfer {
  readonly fromUid: string;
  readonly toUid: string;
  readonly fromAccountType: AccountType;
  readonly toAccountType: AccountType;
  /** Sent as `coin` (the later name of `asset`). */
  readonly coin: string;
  readonly quantity: Decimal;
  /** Idempotency key: the same transferId never moves funds twice. */
  readonly transferId?: string;
}

interface FlowRange {
  readonly coin?: string;
  readonly fromId?: string;
  readonly endId?: string;
  readonly startTime?: number;
  readonly endTime?: number;
  readonly limit?: number;
  readonly category?: Category;
}

export interface BalanceFlowQuery extends FlowRange {
  /** 1 spot account, 3 contract account. */
  readonly accountType?: 1 | 3;
  /** Numeric flow type (51 = transfer). */
  readonly flowType?: number;
}

export type FuturesBalanceFlowQuery = BalanceFlowQuery;

export interface BalanceFlowV2Query extends FlowRange {
  readonly accountType?: 'MAIN' | 'FUTURES';
  /** Flow type by name (USER_ACCOUNT_TRANSFER, ...). */
  readonly flowType?: string;
}

export interface PositionsQuery {
  readonly symbol?: string;
  readonly side?: PositionSide;
  readonly category?: Category;
}

/** Sub-accounts, fund flows, margin mode and leverage (document 000 v1) and futures balance/positions (API-NOTES §4). */
export class AccountApi {
  constructor(private readonly rest: RestTransport) {}

  get transport(): RestTransport {
    return this.rest;
  }

  /** GET /api/v1/subAccount/list */
  async subAccountList(query: SubAccountQuery = {}): Promise<Result<SubAccount[], VenueError>> {
    const e = ENDPOINTS.subAccountList;
    const problem = integerId(e, 'userId', query.userId);
    if (problem !== undefined) return err(problem);
    return callParsed(this.rest, { endpoint: e, query: orderedParams({ userId: query.userId, email: query.email }) }, subAccountListSchema);
  }

  /** POST /api/v1/subAccount/transfer: moves funds between the parent's and sub-accounts' spot and contract accounts. */
  async subAccountTransfer(move: SubAccountTransfer): Promise<Result<Ack, VenueError>> {
    const e = ENDPOINTS.subAccountTransfer;
    const problem = firstViolation(
      () => integerId(e, 'fromUid', move.fromUid, true),
      () => integerId(e, 'toUid', move.toUid, true),
      () => validAccountType(e, 'fromAccountType', move.fromAccountType),
      () => validAccountType(e, 'toAccountType', move.toAccountType),
      () => requireText(e, 'coin', move.coin),
      () => positive(e, 'quantity', move.quantity),
      () => integerId(e, 'transferId', move.transferId),
      () =>
        move.fromUid === move.toUid && move.fromAccountType === move.toAccountType
          ? invalidRequest(endpointLabel(e), 'transfer-same-account', 'source and destination are the same account', 'toAccountType')
          : undefined,
    );
    if (problem !== undefined) return err(problem);
    const form = orderedParams({
      fromUid: move.fromUid,
      toUid: move.toUid,
      fromAccountType: move.fromAccountType,
      toAccountType: move.toAccountType,
      coin: move.coin,
      quantity: move.quantity,
      transferId: move.transferId,
    });
    return callParsed(this.rest, { endpoint: e, form }, ackSchema);
  }

  /** GET /api/v1/account/balanceFlow: transfers between spot and contract accounts. */
  async accountBalanceFlow(query: BalanceFlowQuery = {}): Promise<Result<BalanceFlow[], VenueError>> {
    const e = ENDPOINTS.accountBalanceFlow;
    const problem = firstViolation(
      () => checkRange(e, query),
      () =>
        query.accountType !== undefined && query.accountType !== 1 && query.accountType !== 3
          ? invalidRequest(endpointLabel(e), 'account-type', 'accountType is 1 (spot) or 3 (contract)', 'accountType')
          : undefined,
    );
    if (problem !== undefined) return err(problem);
    return callParsed(this.rest, { endpoint: e, query: flowQuery(query) }, balanceFlowListSchema);
  }

  /** GET /api/v1/futures/balanceFlow: as accountBalanceFlow, rows add symbol and symbolId. */
  async futuresBalanceFlow(query: FuturesBalanceFlowQuery = {}): Promise<Result<FuturesBalanceFlow[], VenueError>> {
    const e = ENDPOINTS.futuresBalanceFlow;
    const problem = checkRange(e, query);
    if (problem !== undefined) return err(problem);
    return callParsed(this.rest, { endpoint: e, query: flowQuery(query) }, futuresBalanceFlowListSchema);
  }

  /** GET /api/v2/account/balance-flow: account and flow types by name. */
  async balanceFlowV2(query: BalanceFlowV2Query = {}): Promise<Result<BalanceFlowV2[], VenueError>> {
    const e = ENDPOINTS.balanceFlowV2;
    const problem = firstViolation(
      () => checkRange(e, query),
      () =>
        query.accountType !== undefined && query.accountType !== 'MAIN' && query.accountType !== 'FUTURES'
          ? invalidRequest(endpointLabel(e), 'account-type', 'accountType is MAIN or FUTURES', 'accountType')
          : undefined,
    );
    if (problem !== undefined) return err(problem);
    return callParsed(this.rest, { endpoint: e, query: flowQuery(query) }, balanceFlowV2ListSchema);
  }

  /** POST /api/v1/futures/marginType */
  async marginType(symbol: string, marginType: MarginType, category?: Category): Promise<Result<MarginTypeResult, VenueError>> {
    const e = ENDPOINTS.marginType;
    const problem = firstViolation(
      () => requireText(e, 'symbol', symbol),
      () =>
        marginTypeEnum.safeParse(marginType).success
          ? undefined
          : invalidRequest(endpointLabel(e), 'margin-type', 'marginType is CROSS or ISOLATED', 'marginType'),
    );
    if (problem !== undefined) return err(problem);
    return callParsed(this.rest, { endpoint: e, form: orderedParams({ symbol, marginType, category }) }, marginTypeResultSchema);
  }

  /** POST /api/v1/futures/leverage */
  async leverage(symbol: string, leverage: number, category?: Category): Promise<Result<LeverageResult, VenueError>> {
    const e = ENDPOINTS.leverage;
    const problem = firstViolation(
      () => requireText(e, 'symbol', symbol),
      () => positiveLeverage(e, leverage),
    );
    if (problem !== undefined) return err(problem);
    return callParsed(this.rest, { endpoint: e, form: orderedParams({ symbol, leverage, category }) }, leverageResultSchema);
  }

  /** GET /api/v1/futures/accountLeverage: leverage and margin type of a contract. */
  async accountLeverage(symbol: string, category?: Category): Promise<Result<AccountLeverage[], VenueError>> {
    const e = ENDPOINTS.accountLeverage;
    const problem = requireText(e, 'symbol', symbol);
    if (problem !== undefined) return err(problem);
    return callParsed(this.rest, { endpoint: e, query: orderedParams({ symbol, category }) }, accountLeverageListSchema);
  }

  /** GET /api/v1/futures/balance: one row per margin coin. */
  async futuresBalance(category?: Category): Promise<Result<FuturesBalance[], VenueError>> {
    // `return await`: an async function that returns a promise resolves with it two microtask turns later.
    return await callParsed(this.rest, { endpoint: ENDPOINTS.futuresBalance, query: orderedParams({ category }) }, futuresBalanceListSchema, readFuturesBalances);
  }

  /** GET /api/v1/futures/positions: open positions (`[]` when flat). */
  async positions(query: PositionsQuery = {}): Promise<Result<Position[], VenueError>> {
    const e = ENDPOINTS.positions;
    if (query.side !== undefined && !positionSide.safeParse(query.side).success) {
      return err(invalidRequest(endpointLabel(e), 'position-side', 'side is LONG or SHORT', 'side'));
    }
    return callParsed(
      this.rest,
      { endpoint: e, query: orderedParams({ symbol: query.symbol, side: query.side, category: query.category }) },
      positionListSchema,
    );
  }
}

/** A LONG id parameter: digits only; `required` refuses it absent. */
function integerId(e: EndpointDef, field: string, value: string | undefined, required = false): Check {
  if (value === undefined) return required ? requireText(e, field, value) : undefined;
  return /^\d+$/.test(value) ? undefined : invalidRequest(endpointLabel(e), `${field}-format`, `${field} must be an integer id`, field);
}

function validAccountType(e: EndpointDef, field: string, value: string): Check {
  return accountType.safeParse(value).success
    ? undefined
    : invalidRequest(endpointLabel(e), 'account-type', `${field} must be one of ${accountType.options.join(', ')}`, field);
}

function checkRange(e: EndpointDef, query: FlowRange): Check {
  return firstViolation(
    () => limitInRange(e, query.limit),
    () => integerId(e, 'fromId', query.fromId),
    () => integerId(e, 'endId', query.endId),
  );
}

function flowQuery(query: BalanceFlowQuery | BalanceFlowV2Query): ReturnType<typeof orderedParams> {
  return orderedParams({
    accountType: query.accountType,
    coin: query.coin,
    flowType: query.flowType,
    fromId: query.fromId,
    endId: query.endId,
    startTime: query.startTime,
    endTime: query.endTime,
    limit: query.limit,
    category: query.category,
  });
}
