import { SimExchange } from '../../../src/sim/engine/sim-exchange.js';
import { tradingRoutes } from '../../../src/sim/routes/index.js';
import { ENDPOINTS } from '../../../src/protocol/endpoints.js';
import type { EndpointName } from '../../../src/protocol/endpoints.js';

/** The brief's set: ENDPOINTS from subAccountList through batchCancelAlgoOrders. */
function tradingEndpointNames(): EndpointName[] {
  const names = Object.keys(ENDPOINTS) as EndpointName[];
  return names.slice(names.indexOf('subAccountList'), names.indexOf('batchCancelAlgoOrders') + 1);
}

describe('tradingRoutes', () => {
  const routes = tradingRoutes(new SimExchange({ startTime: 0, users: [] }));

  it('serves exactly the signed trading endpoints, once each', () => {
    const served = routes.map((r) => r.endpoint);
    expect(new Set(served).size).toBe(served.length);
    expect([...served].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))).toEqual(
      tradingEndpointNames()
        .map((n) => ENDPOINTS[n])
        .sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method)),
    );
    expect(served.every((e) => e.security === 'USER_DATA' || e.security === 'TRADE')).toBe(true);
  });

  it('batch routes count one ORDERS unit per leg', () => {
    const batches = routes.filter((r) => r.ordersOf !== undefined).map((r) => r.endpoint.path);
    expect(batches.sort()).toEqual(['/api/v1/futures/batchOrders', '/api/v2/futures/batch-orders']);
    for (const r of routes) if (r.ordersOf !== undefined) expect(r.ordersOf({ json: [{}, {}] })).toBe(2);
  });
});
