import type { RunningSim } from './sim-harness.js';
import { BTC, ETH, MINUTE, startSim } from './sim-harness.js';

/** Same seed, same virtual start, same advance: two simulators answer byte for byte the same. */
let a: RunningSim;
let b: RunningSim;
let other: RunningSim;

beforeAll(async () => {
  [a, b, other] = await Promise.all([startSim({ seed: 42 }), startSim({ seed: 42 }), startSim({ seed: 43 })]);
});
afterAll(() => Promise.all([a.stop(), b.stop(), other.stop()]));

async function body(sim: RunningSim, pathAndQuery: string): Promise<string> {
  const reply = await fetch(`${sim.sim.address.baseUrl}${pathAndQuery}`);
  expect(reply.status).toBe(200);
  return reply.text();
}

const PATHS = [`/quote/v1/depth?symbol=${BTC}&limit=100`, `/quote/v1/trades?symbol=${BTC}&limit=60`, `/quote/v1/depth?symbol=${ETH}&limit=20`, `/quote/v1/trades?symbol=${ETH}`];

describe('determinism', () => {
  it('depth and trades are byte-identical after the same advance, and differ for another seed', async () => {
    for (const step of [0, 7 * MINUTE, 1234]) {
      for (const sim of [a, b, other]) sim.clock.advanceBy(step);
      for (const path of PATHS) {
        const [left, right, third] = await Promise.all([body(a, path), body(b, path), body(other, path)]);
        expect(left).toBe(right);
        expect(left).not.toBe(third);
      }
    }
  });

  it('the project client parses the same book from both', async () => {
    const [left, right] = await Promise.all([a.publicClient().market.depth({ symbol: BTC, limit: 5 }), b.publicClient().market.depth({ symbol: BTC, limit: 5 })]);
    expect(left.ok && right.ok).toBe(true);
    expect(JSON.stringify(left)).toBe(JSON.stringify(right));
  });
});
