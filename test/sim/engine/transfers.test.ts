import { d, engine, OTHER, PARENT, SUB } from './engine-support.js';
import type { AccountType } from '../../../src/sim/engine/types.js';

type Move = readonly [caller: string, from: string, fromType: AccountType, to: string, toType: AccountType];

const ALLOWED: ReadonlyArray<readonly [rule: number, move: Move]> = [
  [1, [PARENT, PARENT, 'MAIN', SUB, 'MAIN']],
  [1, [PARENT, PARENT, 'MAIN', SUB, 'FUTURES']],
  [2, [PARENT, PARENT, 'MAIN', PARENT, 'FUTURES']],
  [2, [PARENT, PARENT, 'FUTURES', PARENT, 'MAIN']],
  // A user without a parent is a parent account of its own.
  [2, [OTHER, OTHER, 'MAIN', OTHER, 'FUTURES']],
  [2, [OTHER, OTHER, 'FUTURES', OTHER, 'MAIN']],
  [3, [PARENT, SUB, 'MAIN', PARENT, 'MAIN']],
  [3, [PARENT, SUB, 'FUTURES', PARENT, 'MAIN']],
  [4, [PARENT, SUB, 'MAIN', SUB, 'FUTURES']],
  [4, [PARENT, SUB, 'FUTURES', SUB, 'MAIN']],
  [5, [SUB, SUB, 'MAIN', PARENT, 'MAIN']],
  [5, [SUB, SUB, 'FUTURES', PARENT, 'MAIN']],
  [6, [SUB, SUB, 'MAIN', SUB, 'FUTURES']],
  [6, [SUB, SUB, 'FUTURES', SUB, 'MAIN']],
];

const USERS = [PARENT, SUB, OTHER];
const TYPES: readonly AccountType[] = ['MAIN', 'FUTURES', 'COPY_TRADING'];

function everyMove(): Move[] {
  const moves: Move[] = [];
  for (const caller of [PARENT, SUB, OTHER]) for (const from of USERS) for (const fromType of TYPES) for (const to of USERS) for (const toType of TYPES) moves.push([caller, from, fromType, to, toType]);
  return moves;
}

const key = (m: Move): string => m.join(' ');
const allowed = new Set(ALLOWED.map(([, m]) => key(m)));

describe('the six permitted transfer moves', () => {
  test.each(ALLOWED)('rule %d: %j moves the funds', (_rule, [caller, from, fromType, to, toType]) => {
    const { ex } = engine();
    const result = ex.transfer(caller, { fromUserId: from, toUserId: to, fromAccountType: fromType, toAccountType: toType, coin: 'USDT', quantity: d('10') });
    expect(result).toEqual({ ok: true, value: { replayed: false } });
    const flows = [...new Set([from, to])].flatMap((userId) => ex.balanceFlows({ userId, kind: 'TRANSFER', limit: 5 }));
    expect(flows.filter((f) => f.change === '-10' && f.accountType === fromType)).toHaveLength(1);
    expect(flows.filter((f) => f.change === '10' && f.accountType === toType)).toHaveLength(1);
  });

  test('every other move is refused and moves nothing', () => {
    const refused = everyMove().filter((m) => !allowed.has(key(m)));
    expect(refused.length).toBeGreaterThan(200);
    for (const [caller, from, fromType, to, toType] of refused) {
      const { ex } = engine();
      const result = ex.transfer(caller, { fromUserId: from, toUserId: to, fromAccountType: fromType, toAccountType: toType, coin: 'USDT', quantity: d('1') });
      expect(result.ok).toBe(false);
      if (!result.ok) expect([-1204, -1205]).toContain(result.error.code);
      expect(ex.spotBalances(PARENT)).toEqual([{ coin: 'USDT', total: '5000', free: '5000', locked: '0' }]);
    }
  });

  test('a replayed transferId is a no-op; the same id for another transfer is refused', () => {
    const { ex } = engine();
    const move = { fromUserId: PARENT, toUserId: SUB, fromAccountType: 'MAIN', toAccountType: 'MAIN', coin: 'USDT', quantity: d('10'), transferId: '77' } as const;
    expect(ex.transfer(PARENT, move)).toEqual({ ok: true, value: { replayed: false } });
    expect(ex.transfer(PARENT, move)).toEqual({ ok: true, value: { replayed: true } });
    expect(ex.spotBalances(PARENT)[0]?.total).toBe('4990');
    const other = ex.transfer(PARENT, { ...move, quantity: d('11') });
    expect(other.ok ? 0 : other.error.code).toBe(-1300);
  });

  test('more than the free balance is refused (-1131); contract funds held as margin cannot leave', () => {
    const { ex } = engine();
    const tooMuch = ex.transfer(PARENT, { fromUserId: PARENT, toUserId: PARENT, fromAccountType: 'MAIN', toAccountType: 'FUTURES', coin: 'USDT', quantity: d('5000.01') });
    expect(tooMuch.ok ? 0 : tooMuch.error.code).toBe(-1131);
  });
});
