import { formatStatus } from '../../src/app/commands/status.js';

const T0 = 1_767_225_600_000;

function status(protections: unknown): unknown {
  return {
    time: T0,
    mode: 'paper',
    uptimeMs: 60_000,
    state: 'running',
    ready: { ready: true, reasons: [] },
    killSwitch: { engaged: false, reason: '' },
    protections,
    pnlToday: '0',
    strategies: [],
    positions: [],
    openOrders: [],
    openAlgoOrders: [],
    components: { userStreams: [], clock: { synced: true, offsetMs: 0 } },
    lastErrors: {},
    reload: null,
  };
}

test('stratd status lists the protections and each trip with its scope and resume time', () => {
  const text = formatStatus(
    status([
      { name: 'dailyLoss', kind: 'dailyLoss', scope: 'global', action: 'pause', tripped: [] },
      {
        name: 'cooldown',
        kind: 'cooldown',
        scope: 'strategy',
        action: 'pause',
        resumeAfterMs: 900_000,
        tripped: [{ scopeKey: 'trend-btc', reason: 'an exit (order 7) starts a cooldown', since: T0, resumeAt: T0 + 900_000 }],
      },
      { name: 'streak', kind: 'stopLossStreak', scope: 'global', action: 'reduce-only', tripped: [{ scopeKey: 'global', reason: '3 losing exits within 7200s (max 2)', since: T0 }] },
    ]),
  );
  const lines = (text ?? '').split('\n');
  expect(lines).toContain('protections (3, 2 tripped): dailyLoss [global, pause], cooldown [strategy, pause], streak [global, reduce-only]');
  expect(lines).toContain('  TRIPPED cooldown for trend-btc since 2026-01-01T00:00:00.000Z until 2026-01-01T00:15:00.000Z: an exit (order 7) starts a cooldown');
  expect(lines).toContain('  TRIPPED streak for global since 2026-01-01T00:00:00.000Z (until resumed): 3 losing exits within 7200s (max 2)');
});

test('a status without protections (an older daemon) still formats, without the line', () => {
  const text = formatStatus(status(undefined));
  expect(text).toBeDefined();
  expect(text).not.toContain('protections (');
});
