import { dec } from '../../../src/core/decimal.js';
import { positionListSchema } from '../../../src/venue/parsers/account.js';
import { autoAddMarginSchema } from '../../../src/venue/parsers/positions.js';
import { RouteHarness } from './harness.js';

const BTC = 'BTC-SWAP-USDT';

/** An isolated 10-contract long at about 100000; answers the harness and the position's liquidation price. */
async function isolatedLong(autoAdd: boolean): Promise<{ h: RouteHarness; flp: string; margin: string }> {
  const h = new RouteHarness();
  await h.data('marginType', { params: { symbol: BTC, marginType: 'ISOLATED' } });
  if (autoAdd) expect(await h.parsed('autoAddMargin', autoAddMarginSchema, { params: { symbol: BTC, side: 'LONG', enable: 'ON' } })).toMatchObject({ enable: 'ON' });
  await h.data('orderV1Create', { params: { symbol: BTC, side: 'BUY_OPEN', type: 'LIMIT', priceType: 'MARKET', quantity: '10', newClientOrderId: 'long' } });
  const [p] = await h.parsed('positions', positionListSchema, { params: { symbol: BTC } });
  if (p?.flp === undefined) throw new Error('no isolated long');
  return { h, flp: p.flp.toFixed(), margin: p.margin.toFixed() };
}

describe('auto-add margin (isolated)', () => {
  it('off: the mark below the liquidation price liquidates the position', async () => {
    const { h, flp } = await isolatedLong(false);
    h.market(BTC, dec(flp).sub(50).toFixed(1));
    expect(await h.data('positions', { params: { symbol: BTC } })).toEqual([]);
  });

  it('on: margin moves in from the account instead, and the position stays', async () => {
    const { h, flp, margin } = await isolatedLong(true);
    h.market(BTC, dec(flp).sub(50).toFixed(1));
    const [p] = await h.parsed('positions', positionListSchema, { params: { symbol: BTC } });
    expect(p?.position.eq(10)).toBe(true);
    expect(p?.margin.gt(margin)).toBe(true);
    // Switched off again, the next fall liquidates it.
    await h.data('autoAddMargin', { params: { symbol: BTC, side: 'LONG', enable: 'OFF' } });
    const [after] = await h.parsed('positions', positionListSchema, { params: { symbol: BTC } });
    h.market(BTC, dec(after?.flp ?? 0).sub(50).toFixed(1));
    expect(await h.data('positions', { params: { symbol: BTC } })).toEqual([]);
  });

  it('refuses a bad switch value and an unknown symbol', async () => {
    const h = new RouteHarness();
    expect(await h.code('autoAddMargin', { params: { symbol: BTC, side: 'LONG', enable: 'YES' } })).toBe(-1130);
    expect(await h.code('autoAddMargin', { params: { symbol: 'NOPE', side: 'LONG', enable: 'ON' } })).toBe(-1121);
  });
});
