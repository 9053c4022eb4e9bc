import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Daemon } from '../../../src/app/daemon/daemon.js';
import { prepareRun } from '../../../src/app/commands/run.js';
import type { RunningSim } from '../../sim/e2e/sim-harness.js';
import { MINUTE, startSim } from '../../sim/e2e/sim-harness.js';
import { waitFor } from '../../venue/stream/session-harness.js';
import { silentLogger } from '../../../src/core/logger.js';
import { liveEnv, liveYaml, writeConfig } from './daemon-harness.js';
import { sample, scrape } from './metrics-scrape.js';

/**
 * A reload that fails is never swallowed: a file that cannot be read (a recursive alias, which used to
 * overflow the stack inside the SIGHUP handler) or a reread that throws leaves the running config in
 * place, and shows in /status (reload, lastErrors) and in stratd_config_reloads_total{outcome="failed"}.
 */
let dir: string;
let s: RunningSim;
let daemon: Daemon | undefined;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-reload-failures-'));
  s = await startSim({ warmupMs: MINUTE });
});
afterEach(async () => {
  await daemon?.stop();
  daemon = undefined;
  await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function reloads(d: Daemon, outcome: string): Promise<number | undefined> {
  return sample(await scrape(d.health.url), 'stratd_config_reloads_total', { outcome });
}

describe('failed reloads are reported', () => {
  it('SIGHUP on a file with a recursive alias: /status.reload and lastErrors name the file, line and column; counted', async () => {
    const file = writeConfig(dir, 'live.yml', liveYaml(join(dir, 'state')));
    const env = liveEnv(s);
    const prepared = await prepareRun({ config: file }, env);
    if (!prepared.ok) throw prepared.error;
    const hangup = new EventEmitter();
    const started = await Daemon.start({ config: prepared.value.config, strategies: prepared.value.strategies, time: s.clock, logger: silentLogger, env, hangup, reread: () => prepareRun({ config: file }, env) });
    if (!started.ok) throw started.error;
    const d = started.value;
    daemon = d;

    writeFileSync(file, `${liveYaml(join(dir, 'state'))}loop: &loop { again: *loop }\n`);
    hangup.emit('SIGHUP', 'SIGHUP');
    await waitFor(() => d.status().reload !== null, 'the reload report');
    const report = d.status().reload;
    expect(report).toMatchObject({ ok: false, applied: [], rejected: [] });
    expect(report?.error).toMatch(new RegExp(`^${file}:\\d+:22: invalid YAML: the alias \\*loop refers to a node that contains it`));
    expect(d.status().lastErrors['reload']?.message).toBe(report?.error);
    expect(await reloads(d, 'failed')).toBe(1);

    // The file repaired: the next reload goes through and is counted as such.
    writeFileSync(file, liveYaml(join(dir, 'state')));
    hangup.emit('SIGHUP', 'SIGHUP');
    await waitFor(() => d.status().reload?.ok === true, 'the good reload');
    expect(await reloads(d, 'ok')).toBe(1);
  });

  it('a reread that throws is a failed reload, not an unhandled rejection', async () => {
    const file = writeConfig(dir, 'live.yml', liveYaml(join(dir, 'state')));
    const env = liveEnv(s);
    const prepared = await prepareRun({ config: file }, env);
    if (!prepared.ok) throw prepared.error;
    const started = await Daemon.start({
      config: prepared.value.config,
      strategies: [],
      time: s.clock,
      logger: silentLogger,
      env,
      hangup: null,
      reread: () => Promise.reject(new RangeError('Maximum call stack size exceeded')),
    });
    if (!started.ok) throw started.error;
    const d = started.value;
    daemon = d;
    const report = await d.reload();
    expect(report).toMatchObject({ ok: false, error: 'the configuration could not be reloaded: Maximum call stack size exceeded' });
    expect(d.status().reload).toEqual(report);
    expect(await reloads(d, 'failed')).toBe(1);
  });
});
