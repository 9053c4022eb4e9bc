import { dec } from '../../../src/core/decimal.js';
import { positionListSchema } from '../../../src/venue/parsers/account.js';
import { autoAddMarginSchema, closedPositionListSchema } from '../../../src/venue/parsers/positions.js';
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

describe('historyPositions', () => {
  it('one row per life of a position: largest size, closed quantity, average close price, realized PnL; liquidations marked', async () => {
    const h = new RouteHarness();
    const order = (side: string, quantity: string, id: string) =>
      h.data('orderV1Create', { params: { symbol: BTC, side, type: 'LIMIT', priceType: 'MARKET', quantity, newClientOrderId: id } });
    await order('BUY_OPEN', '10', 'o1');
    await order('BUY_OPEN', '5', 'o2');
    await order('SELL_CLOSE', '6', 'c1');
    expect(await h.data('historyPositions', {})).toEqual([]);
    h.market(BTC, '101000');
    await order('SELL_CLOSE', '9', 'c2');
    const [row] = await h.parsed('historyPositions', closedPositionListSchema, { params: { symbol: BTC } });
    expect(row).toMatchObject({ symbol: BTC, side: 'LONG', closeType: 'CLOSE' });
    expect(row?.maxPositionQuantity?.eq(15)).toBe(true);
    expect(row?.closedQuantity.eq(15)).toBe(true);
    // Sold 6 near 100000 and 9 near 101000: the average lies between, the PnL is what the flows recorded.
    expect(row?.closeAvgPrice?.gt(100000) && row.closeAvgPrice.lt(101000)).toBe(true);
    const flows = (await h.data('futuresBalanceFlow', { params: { flowType: '28' } })) as { change: string }[];
    expect(row?.realizedPnl.eq(flows.reduce((sum, f) => sum.add(f.change), dec(0)))).toBe(true);

    const { h: liquidated, flp } = await isolatedLong(false);
    liquidated.market(BTC, dec(flp).sub(50).toFixed(1));
    const [gone] = await liquidated.parsed('historyPositions', closedPositionListSchema, {});
    expect(gone?.closeType).toBe('LIQUIDATION');
  });
});
