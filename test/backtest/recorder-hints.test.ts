import { loadInstrumentHints } from '../../src/recording/recorder/venue-hints.js';
import { silentLogger } from '../../src/core/logger.js';
import { BTC_SWAP_USDT, ETH_SWAP_USDT } from '../../src/sim/market-stream/instruments.js';
import type { RunningSim } from '../sim/e2e/sim-harness.js';
import { startSim } from '../sim/e2e/sim-harness.js';

/** Risk tiers and fee rates for recording headers, from the venue (live) or the embedded simulator (paper). */
let s: RunningSim;
beforeAll(async () => {
  s = await startSim();
});
afterAll(() => s.stop());

describe('instrument hints for recording headers', () => {
  it('live: exchangeInfo gives each contract its risk tiers; fee rates only when configured', async () => {
    const market = s.publicClient().market;
    const hints = await loadInstrumentHints({ market, symbols: [BTC_SWAP_USDT.symbol, ETH_SWAP_USDT.symbol], logger: silentLogger });
    expect(hints.get(BTC_SWAP_USDT.symbol)).toEqual({ riskLimits: BTC_SWAP_USDT.riskLimits });
    expect(hints.get(ETH_SWAP_USDT.symbol)).toEqual({ riskLimits: ETH_SWAP_USDT.riskLimits });

    const withFees = await loadInstrumentHints({ market, symbols: [BTC_SWAP_USDT.symbol], fees: { maker: '0.0001', taker: '0.0004' }, logger: silentLogger });
    expect(withFees.get(BTC_SWAP_USDT.symbol)).toEqual({ riskLimits: BTC_SWAP_USDT.riskLimits, makerFeeRate: '0.0001', takerFeeRate: '0.0004' });
  });

  it('paper: the simulator\'s own instruments, without asking the venue', async () => {
    const market = { exchangeInfo: () => Promise.reject(new Error('not asked')) };
    const hints = await loadInstrumentHints({ market, symbols: [ETH_SWAP_USDT.symbol], sim: [BTC_SWAP_USDT, ETH_SWAP_USDT], logger: silentLogger });
    expect([...hints]).toEqual([[ETH_SWAP_USDT.symbol, { riskLimits: ETH_SWAP_USDT.riskLimits, makerFeeRate: '0.0002', takerFeeRate: '0.0006' }]]);
  });

  it('a venue failing with 5xx leaves the tiers to estimates', async () => {
    const updated = s.sim.http.faults.update({ http5xxRate: 1 });
    expect(updated.ok).toBe(true);
    try {
      const hints = await loadInstrumentHints({ market: s.publicClient().market, symbols: [BTC_SWAP_USDT.symbol], logger: silentLogger });
      expect(hints.get(BTC_SWAP_USDT.symbol)).toEqual({});
    } finally {
      s.sim.http.faults.update({ http5xxRate: 0 });
    }
  });
});
