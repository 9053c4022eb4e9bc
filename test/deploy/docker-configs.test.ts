import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { prepareRun } from '../../src/app/commands/run.js';
import { loadSimConfig } from '../../src/app/commands/sim.js';
import { loadDaemonConfig } from '../../src/settings/daemon-config/daemon-config.js';
import type { Stage } from './dockerfile-parse.js';
import { assignments, execForm, parseDockerfile } from './dockerfile-parse.js';
import { CONTAINER_CONFIG_DIR, DOCKER_DIR, ROOT, hostPathOf, readCompose, readEnvFile } from './deploy-files.js';

/**
 * The docker-compose example stays valid: its daemon config loads (live mode, keys from the env file)
 * with its strategies, its sim config loads and differs from config/sim.yml only in the listening
 * host, and the compose file wires them as the Dockerfile expects.
 */
const compose = readCompose();
const runtime = parseDockerfile(join(ROOT, 'Dockerfile')).at(-1) as Stage;
const imageEnv = assignments(
  runtime.instructions
    .filter((i) => i.keyword === 'ENV')
    .map((i) => i.args)
    .join(' '),
);
const envFile = readEnvFile(join(DOCKER_DIR, 'stratd.env'));
/** The stratd container's environment: the image's ENV, then env_file. */
const containerEnv = { ...Object.fromEntries(imageEnv), ...envFile };

function simConfig(file: string) {
  const loaded = loadSimConfig({ config: file });
  if (!loaded.ok) throw loaded.error;
  return loaded.value;
}

describe('deploy/docker/sim.yml (the `sim` service)', () => {
  it('is config/sim.yml listening on every interface of its container, on 8901', () => {
    const docker = simConfig(join(DOCKER_DIR, 'sim.yml'));
    const packaged = simConfig(join(ROOT, 'config', 'sim.yml'));
    expect(docker.host).toBe('0.0.0.0');
    expect(docker.port).toBe(8901);
    expect({ ...docker, host: packaged.host }).toEqual(packaged);
  });
});

describe('deploy/docker/stratd.yml (the `stratd` service)', () => {
  const file = join(DOCKER_DIR, 'stratd.yml');

  it('loads in live mode against the sim service with the env file’s keys, state in the image’s volume', () => {
    const loaded = loadDaemonConfig(file, { env: containerEnv, cwd: '/opt/stratd' });
    if (!loaded.ok) throw loaded.error;
    const config = loaded.value;
    const sim = simConfig(join(DOCKER_DIR, 'sim.yml'));
    const trader = sim.keys.find((k) => k.name === 'trader');
    expect(config.venue).toMatchObject({
      mode: 'live',
      baseUrl: `http://sim:${sim.port}`,
      streamUrl: `ws://sim:${sim.port}`,
      credentials: { apiKey: trader?.apiKey, apiSecret: trader?.secret },
    });
    expect(config.catalog).toMatchObject({ kind: 'service', baseUrl: `http://sim:${sim.port}/catalog`, token: sim.catalog.token });
    expect(config.stateDir).toBe('/var/lib/stratd');
    expect(config.health).toMatchObject({ host: '127.0.0.1', port: 9464 });
  });

  it('prepares as `stratd run` does: every strategy module found and its params valid', async () => {
    const prepared = await prepareRun({ config: file }, containerEnv);
    if (!prepared.ok) throw prepared.error;
    expect(prepared.value.strategies.map((s) => s.id)).toEqual(['quoter-btc', 'breakout-eth']);
  });

  it('holds no secret itself: without the env file it names the missing variable', () => {
    const loaded = loadDaemonConfig(file, { env: Object.fromEntries(imageEnv) });
    expect(loaded.ok ? 'loaded' : loaded.error.reason).toBe('environment variable STRATD_API_KEY is not set');
  });

  it('stops within the compose stop_grace_period', () => {
    const loaded = loadDaemonConfig(file, { env: containerEnv });
    if (!loaded.ok) throw loaded.error;
    const grace = Number(/^(\d+)s$/.exec(compose.services['stratd']?.stop_grace_period ?? '')?.[1]);
    expect(loaded.value.shutdown.timeoutMs).toBeLessThan(grace * 1000);
  });
});

describe('docker-compose.yml', () => {
  const { sim, stratd } = compose.services;

  it('runs both services from the image this repository builds', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['sim', 'stratd']);
    for (const service of [sim, stratd]) {
      expect(service?.build).toBe('.');
      expect(service?.image).toBe('stratd:local');
      expect(service?.read_only).toBe(true);
      expect(service?.volumes).toContain(`./deploy/docker:${CONTAINER_CONFIG_DIR}:ro`);
    }
  });

  it('starts stratd with the image’s own command, the state volume at the image’s VOLUME, after sim is healthy', () => {
    expect(stratd?.command).toEqual(execForm(runtime.instructions.find((i) => i.keyword === 'CMD')?.args ?? ''));
    const volume = execForm(runtime.instructions.find((i) => i.keyword === 'VOLUME')?.args ?? '')?.[0];
    expect(stratd?.volumes).toContain(`stratd-state:${volume}`);
    expect(Object.keys(compose.volumes)).toEqual(['stratd-state']);
    expect(stratd?.env_file).toBe('deploy/docker/stratd.env');
    expect(stratd?.depends_on).toEqual({ sim: { condition: 'service_healthy' } });
  });

  it('names config files that exist in deploy/docker', () => {
    for (const command of [sim?.command ?? [], stratd?.command ?? []]) {
      const config = command[command.indexOf('--config') + 1] ?? '';
      expect([config, existsSync(hostPathOf(config))]).toEqual([config, true]);
    }
    expect(sim?.command).toEqual(['sim', '--config', `${CONTAINER_CONFIG_DIR}/sim.yml`]);
  });

  it('checks the sim’s health on the port its config listens on, and publishes it on the host’s loopback only', () => {
    const port = simConfig(join(DOCKER_DIR, 'sim.yml')).port;
    expect(sim?.healthcheck?.test.join(' ')).toContain(`http://127.0.0.1:${port}/`);
    expect(sim?.ports).toEqual([`127.0.0.1:${port}:${port}`]);
  });
});
