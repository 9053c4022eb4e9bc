import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDaemonConfig } from '../../src/settings/daemon-config/daemon-config.js';

const SIM_YML = join(process.cwd(), 'config', 'sim.yml');
const MARKET = `market:\n  - symbol: BTC-SWAP-USDT\n    depth: { every: 1s }\n`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-protections-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let counter = 0;
function load(text: string): ReturnType<typeof loadDaemonConfig> {
  counter += 1;
  const file = join(dir, `config-${counter}.yml`);
  writeFileSync(file, text);
  return loadDaemonConfig(file, { env: {}, defaultSimConfig: SIM_YML, cwd: dir });
}

describe('risk.protections', () => {
  it('reads each kind into its spec: durations in ms, names defaulting to the kind', () => {
    const result = load(`${MARKET}risk:
  protections:
    - { kind: trailingDrawdown, maxPct: 5, action: pause, resumeAfter: 1h }
    - { kind: stopLossStreak, name: streak, count: 3, window: 2h, action: reduce-only, scope: strategy, strategies: [trend-btc] }
    - { kind: cooldown, resumeAfter: 15m, scope: strategy }
    - { kind: notionalCap, maxGross: "50000" }
    - { kind: dailyLoss, limit: 500 }
`);
    if (!result.ok) throw new Error(result.error.message);
    const specs = result.value.risk.protections ?? [];
    expect(specs.map((s) => [s.name, s.kind, s.action, s.scope, s.resumeAfterMs])).toEqual([
      ['trailingDrawdown', 'trailingDrawdown', 'pause', 'global', 3_600_000],
      ['streak', 'stopLossStreak', 'reduce-only', 'strategy', undefined],
      ['cooldown', 'cooldown', 'block-entries', 'strategy', 900_000],
      ['notionalCap', 'notionalCap', 'block-entries', 'global', undefined],
      ['dailyLoss', 'dailyLoss', 'pause', 'global', undefined],
    ]);
    const streak = specs[1];
    expect(streak?.kind === 'stopLossStreak' ? [streak.count, streak.windowMs, streak.strategies] : undefined).toEqual([3, 7_200_000, ['trend-btc']]);
    expect(Object.keys(specs[3] ?? {})).not.toContain('maxNet');
  });

  it.each([
    ['- { kind: trailingDrawdown, maxPct: 5, action: pause }', 'risk.protections[0].resumeAfter', 'action pause needs resumeAfter'],
    ['- { kind: cooldown }', 'risk.protections[0].resumeAfter', 'a cooldown needs resumeAfter'],
    ['- { kind: trailingDrawdown }', 'risk.protections[0].maxPct', 'give maxPct'],
    ['- { kind: notionalCap, maxGross: 10, strategies: [a] }', 'risk.protections[0].strategies', 'only with scope: strategy'],
    ['- { kind: leverageCap, max: 3 }\n    - { kind: leverageCap, max: 5 }', 'risk.protections[1].name', 'give one a name'],
    ['- { kind: dailyLoss, limit: 5, scope: strategy }', 'risk.protections[0].scope', 'scope global'],
    ['- { kind: drawdown, maxPct: 5 }', 'risk.protections[0].kind', 'one of trailingDrawdown'],
    ['- { kind: marginRatioCap, maxPct: 150 }', 'risk.protections[0].maxPct', 'at most 100'],
    ['- { kind: leverageCap, max: 3, action: close }', 'risk.protections[0].action', 'one of block-entries'],
  ])('%s is refused at its place', (entry, path, message) => {
    const result = load(`${MARKET}risk:\n  protections:\n    ${entry}\n`);
    if (result.ok) throw new Error('expected a config error');
    expect(result.error.location).toMatchObject({ path });
    expect(result.error.message).toContain(message);
  });

  it('refuses the daily loss limit set twice', () => {
    const result = load(`${MARKET}risk:\n  dailyLossLimit: 5\n  protections:\n    - { kind: dailyLoss, limit: 5 }\n`);
    if (result.ok) throw new Error('expected a config error');
    expect(result.error.location).toMatchObject({ path: 'risk.dailyLossLimit' });
  });
});
