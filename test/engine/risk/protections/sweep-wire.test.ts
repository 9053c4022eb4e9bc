import { dec } from '../../../../src/core/decimal.js';
import { limitsToWire, wireToLimitsInput } from '../../../../src/sweep/types.js';
import type { GlobalRiskLimits } from '../../../../src/model/risk-limits.js';
import { globalRiskSchema } from '../../../../src/settings/daemon-config/schema.js';

test('the global risk with protections crosses to a sweep worker and reads back into the same specs', () => {
  const risk: GlobalRiskLimits = {
    maxLeverage: dec(5),
    protections: [
      { kind: 'trailingDrawdown', name: 'dd', action: 'pause', scope: 'strategy', resumeAfterMs: 3_600_000, maxPct: dec('2.5'), strategies: ['a'] },
      { kind: 'stopLossStreak', name: 'streak', action: 'reduce-only', scope: 'global', count: 3, windowMs: 7_200_000 },
    ],
  };
  const wire = structuredClone(limitsToWire(risk));
  const back = globalRiskSchema.parse(wireToLimitsInput(wire));
  expect(back.maxLeverage?.toFixed()).toBe('5');
  expect(JSON.parse(JSON.stringify(back.protections)) as unknown).toEqual(JSON.parse(JSON.stringify(risk.protections)));
});
