import type { AccountType, Category, FlowKind, FlowQuery } from '../engine/types.js';
import type { ParamReader } from './param-reader.js';
import { rejects } from './rejects.js';

/** Flow kinds by v1 number and v2 name (API-NOTES §5.11; the names the engine's views carry). */
const FLOW_KINDS: readonly { readonly kind: FlowKind; readonly value: number; readonly name: string }[] = [
  { kind: 'TRANSFER', value: 51, name: 'USER_ACCOUNT_TRANSFER' },
  { kind: 'FEE', value: 10, name: 'TRADING_FEE' },
  { kind: 'REALIZED_PNL', value: 28, name: 'REALIZED_PNL' },
  { kind: 'FUNDING', value: 32, name: 'FUNDING_FEE' },
  { kind: 'LIQUIDATION', value: 700, name: 'LIQUIDATION' },
  { kind: 'WITHDRAW', value: 2, name: 'USER_ACCOUNT_WITHDRAW' },
  { kind: 'DEPOSIT', value: 1, name: 'USER_ACCOUNT_DEPOSIT' },
];

/**
 * A balance-flow query, or `empty` when it names a flow type the simulator never writes (ADL 701,
 * airdrop 7, ...): such a query answers [] without asking the engine.
 */
export type FlowRequest = { readonly kind: 'query'; readonly query: FlowQuery } | { readonly kind: 'empty' };

type Generation = 'v1-account' | 'v1-futures' | 'v2';

/**
 * Parameters of the three balance-flow routes: v1 accountType 1 (spot) or 3 (contract) and a numeric
 * flowType; v2 accountType MAIN (default) or FUTURES and flowType by name. The futures route always
 * reads the contract account. Ranges: fromId/endId ids, startTime/endTime ms, limit 1..1000 (20).
 */
export function readFlowRequest(r: ParamReader, userId: string, category: Category, generation: Generation): FlowRequest {
  const accountType = readAccountType(r, generation);
  const coin = r.text('coin');
  const kind = readKind(r, generation);
  const fromId = r.id('fromId');
  const endId = r.id('endId');
  const startTime = r.integer('startTime');
  const endTime = r.integer('endTime');
  const limit = r.limit();
  if (kind === null) return { kind: 'empty' };
  const query: FlowQuery = {
    userId,
    category,
    limit,
    ...(accountType === undefined ? {} : { accountType }),
    ...(coin === undefined ? {} : { coin }),
    ...(kind === undefined ? {} : { kind }),
    ...(fromId === undefined ? {} : { fromId }),
    ...(endId === undefined ? {} : { endId }),
    ...(startTime === undefined || startTime <= 0 ? {} : { startTime }),
    ...(endTime === undefined || endTime <= 0 ? {} : { endTime }),
  };
  return { kind: 'query', query };
}

function readAccountType(r: ParamReader, generation: Generation): AccountType | undefined {
  switch (generation) {
    case 'v1-futures':
      return 'FUTURES';
    case 'v2':
      return r.choice('accountType', ['MAIN', 'FUTURES'] as const) ?? 'MAIN';
    case 'v1-account': {
      const code = r.integer('accountType');
      if (code === undefined) return undefined;
      if (code === 1) return 'MAIN';
      if (code === 3) return 'FUTURES';
      r.fail(rejects.invalid('accountType'));
      return undefined;
    }
  }
}

/** The flow kind asked for; undefined for "all", null for a valid type the simulator never writes. */
function readKind(r: ParamReader, generation: Generation): FlowKind | undefined | null {
  if (generation === 'v2') {
    const name = r.text('flowType');
    if (name === undefined) return undefined;
    return FLOW_KINDS.find((k) => k.name === name)?.kind ?? null;
  }
  const value = r.integer('flowType');
  if (value === undefined) return undefined;
  return FLOW_KINDS.find((k) => k.value === value)?.kind ?? null;
}
