import { dec } from '../../../src/core/decimal.js';
import { SimExchange } from '../../../src/sim/engine/sim-exchange.js';
import type { WithdrawCommand } from '../../../src/sim/wallet/wallet-desk.js';

const T0 = Date.UTC(2026, 0, 1);
const EVM = `0x${'12'.repeat(20)}`;

function exchange(): SimExchange {
  return new SimExchange({
    startTime: T0,
    users: [
      { userId: '1', email: 'one@example.com', balances: { MAIN: { USDT: '100', BTC: '1' } } },
      { userId: '2', email: 'two@example.com' },
    ],
  });
}

function spot(ex: SimExchange, userId: string, coin: string): string {
  return ex.spotBalances(userId).find((b) => b.coin === coin)?.total ?? '0';
}

const usdt = (quantity: string, extra: Partial<WithdrawCommand> = {}): WithdrawCommand => ({ coin: 'USDT', chainType: 'ERC20', address: EVM, addressType: 'BLOCK_CHAIN', quantity: dec(quantity), ...extra });

describe('the simulated wallet', () => {
  it('deposit addresses are stable per user, coin and chain, in the chain format', () => {
    const ex = exchange();
    const trx = ex.depositAddress('1', 'USDT', 'TRX');
    const again = ex.depositAddress('1', 'USDT', 'TRX');
    const other = ex.depositAddress('2', 'USDT', 'TRX');
    if (!trx.ok || !again.ok || !other.ok) throw new Error('expected addresses');
    expect(trx.value.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(again.value.address).toBe(trx.value.address);
    expect(other.value.address).not.toBe(trx.value.address);
    const btc = ex.depositAddress('1', 'BTC', 'BTC');
    expect(btc.ok && btc.value.address).toMatch(/^bc1q/);
    const wrong = ex.depositAddress('1', 'BTC', 'TRX');
    expect(wrong.ok ? 'ok' : wrong.error.code).toBe(-1130);
  });

  it('limits from the chain table: the minimum, the fee, the balance; the fee comes out of the quantity', () => {
    const ex = exchange();
    const code = (r: ReturnType<SimExchange['withdraw']>): number | 'ok' => (r.ok ? 'ok' : r.error.code);
    expect(code(ex.withdraw('1', usdt('19.99')))).toBe(-1130);
    expect(code(ex.withdraw('1', usdt('100.01')))).toBe(-1131);
    expect(code(ex.withdraw('1', usdt('20', { address: 'T-not-evm' })))).toBe(-1130);
    const done = ex.withdraw('1', usdt('20'));
    expect(done.ok && [done.value.fee, done.value.arriveQuantity]).toEqual(['3', '17']);
    expect(spot(ex, '1', 'USDT')).toBe('80');
    expect(ex.balanceFlows({ userId: '1', accountType: 'MAIN', coin: 'USDT', limit: 1 })[0]).toMatchObject({ change: '-20', total: '80', flowType: 'USER_ACCOUNT_WITHDRAW' });
  });

  it('an internal transfer by email credits the other user without fee and shows as its deposit', () => {
    const ex = exchange();
    const sent = ex.withdraw('1', usdt('20', { addressType: 'EMAIL', address: 'TWO@example.com' }));
    expect(sent.ok && sent.value.fee).toBe('0');
    expect([spot(ex, '1', 'USDT'), spot(ex, '2', 'USDT')]).toEqual(['80', '20']);
    expect(ex.deposits('2', { limit: 10 }).map((d) => [d.coin, d.quantity, d.fromUserId])).toEqual([['USDT', '20', '1']]);
    expect(ex.withdrawals('1', { limit: 10, coin: 'BTC' })).toEqual([]);
  });
});
