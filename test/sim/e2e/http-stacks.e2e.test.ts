import { Decimal, dec } from '../../../src/core/decimal.js';
import type { HttpStack } from '../../../src/venue/http-stack.js';
import type { RunningSim } from './sim-harness.js';
import { BTC, startSim, value } from './sim-harness.js';

/** Each of the client's own transports (`exchange.http`) carries signed orders to the simulator and back. */
let s: RunningSim;

beforeAll(async () => {
  s = await startSim();
});
afterAll(() => s.stop());
beforeEach(() => s.clock.advanceBy(2_500));

describe.each<HttpStack>(['socket', 'undici', 'node'])('the client over exchange.http: %s', (stack) => {
  it('places a limit order far below the market, lists it open, cancels it', async () => {
    const trader = s.client('trader', { httpStack: stack });
    try {
      const [book] = value(await trader.market.contractBookTicker(BTC));
      if (book === undefined) throw new Error('no book ticker');
      const price = book.bidPrice.mul('0.8').toDecimalPlaces(1, Decimal.ROUND_DOWN);
      const placed = value(await trader.ordersV2.placeOrder({ symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'LIMIT', price, quantity: dec(1), newClientOrderId: `stack-${stack}` }));
      expect(placed).toMatchObject({ clientOrderId: `stack-${stack}`, status: 'NEW' });
      expect(value(await trader.ordersV2.openOrders({ symbol: BTC })).map((o) => o.orderId)).toContain(placed.orderId);
      expect(value(await trader.ordersV2.cancelOrder({ orderId: placed.orderId })).status).toBe('CANCELED');
      expect(value(await trader.ordersV2.openOrders({ symbol: BTC })).map((o) => o.orderId)).not.toContain(placed.orderId);
    } finally {
      await trader.stop();
    }
  });
});
