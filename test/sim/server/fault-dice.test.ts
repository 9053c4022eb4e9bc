import { NO_FAULTS } from '../../../src/sim/config/fault-settings.js';
import { FaultDice } from '../../../src/sim/server/faults/dice.js';

describe('FaultDice', () => {
  const faults = { ...NO_FAULTS, latencyMs: 100, latencyJitterMs: 50, http5xxRate: 0.2, timeoutRate: 0.2, lostReplyRate: 0.2 };

  it('delays within latency .. latency + jitter, split in two halves', () => {
    const dice = new FaultDice(3);
    for (let i = 0; i < 200; i++) {
      const plan = dice.plan(faults);
      const total = plan.delayInMs + plan.delayOutMs;
      expect(total).toBeGreaterThanOrEqual(100);
      expect(total).toBeLessThanOrEqual(150);
      expect(plan.delayOutMs - plan.delayInMs).toBeLessThanOrEqual(1);
    }
  });

  it('the same seed plans the same faults; every kind occurs', () => {
    const a = new FaultDice(11);
    const b = new FaultDice(11);
    const kinds = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const plan = a.plan(faults);
      expect(b.plan(faults)).toEqual(plan);
      kinds.add(plan.outcome.kind);
    }
    expect([...kinds].sort()).toEqual(['answer', 'http5xx', 'lost-reply', 'timeout']);
  });

  it('rates 0 and 1 are never and always', () => {
    const dice = new FaultDice(1);
    for (let i = 0; i < 50; i++) expect(dice.plan(NO_FAULTS).outcome.kind).toBe('answer');
    for (let i = 0; i < 50; i++) expect(dice.plan({ ...NO_FAULTS, lostReplyRate: 1 }).outcome.kind).toBe('lost-reply');
  });
});
