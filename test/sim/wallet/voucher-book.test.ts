import { dec } from '../../../src/core/decimal.js';
import { VoucherBook } from '../../../src/sim/wallet/voucher-book.js';

const T0 = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;

describe('VoucherBook', () => {
  const volume = (amount: string) => () => dec(amount);

  it('grants a free and a gated voucher; the gated one needs the trading volume', () => {
    const book = new VoucherBook();
    book.grant('u1', 'USDT', T0);
    const [free, gated] = book.list('u1', 'USDT', undefined, T0);
    expect(free).toMatchObject({ amount: '50', voucherStatus: 'NOT_USED', thresholdVolume: '0', claimThreshold: '' });
    expect(gated).toMatchObject({ amount: '100', voucherStatus: 'NOT_USED', thresholdVolume: '500' });
    const refused = book.receive('u1', gated?.relationId ?? '', T0, volume('499.99'));
    expect(refused.ok ? 'ok' : refused.error.code).toBe(-1407);
    const received = book.receive('u1', gated?.relationId ?? '', T0, volume('500'));
    expect(received.ok && received.value.voucherStatus).toBe('USING');
    expect(book.coupon('u1', 'USDT', T0).toFixed()).toBe('100');
  });

  it('another user, an unknown id and a second receive are refused; status filters the list', () => {
    const book = new VoucherBook();
    book.grant('u1', 'USDT', T0);
    book.grant('u2', 'USDT', T0);
    const [mine] = book.list('u1', 'USDT', undefined, T0);
    const code = (r: ReturnType<VoucherBook['receive']>): number | 'ok' => (r.ok ? 'ok' : r.error.code);
    expect(code(book.receive('u2', mine?.relationId ?? '', T0, volume('0')))).toBe(-1405);
    expect(code(book.receive('u1', '1', T0, volume('0')))).toBe(-1405);
    expect(code(book.receive('u1', mine?.relationId ?? '', T0, volume('0')))).toBe('ok');
    expect(code(book.receive('u1', mine?.relationId ?? '', T0, volume('0')))).toBe(-1406);
    expect(book.list('u1', 'USDT', 'USING', T0).map((v) => v.relationId)).toEqual([mine?.relationId]);
    expect(book.list('u1', 'USDT', 'NOT_USED', T0)).toHaveLength(1);
    expect(book.list('u1', 'USDC', undefined, T0)).toEqual([]);
  });

  it('after 30 days a voucher is spent: receiving it is -1409, a received one leaves the coupon', () => {
    const book = new VoucherBook();
    book.grant('u1', 'USDT', T0);
    const [free, gated] = book.list('u1', 'USDT', undefined, T0);
    expect(book.receive('u1', free?.relationId ?? '', T0, volume('0')).ok).toBe(true);
    const later = T0 + 30 * DAY;
    const late = book.receive('u1', gated?.relationId ?? '', later, volume('1000'));
    expect(late.ok ? 'ok' : late.error.code).toBe(-1409);
    expect(book.list('u1', 'USDT', undefined, later).map((v) => [v.voucherStatus, v.voucherBalance])).toEqual([
      ['USED', '0'],
      ['USED', '0'],
    ]);
    expect(book.coupon('u1', 'USDT', later).isZero()).toBe(true);
  });
});
