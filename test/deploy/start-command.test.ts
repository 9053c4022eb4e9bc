import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Stage } from './dockerfile-parse.js';
import { assignments, execForm, healthcheck, parseDockerfile } from './dockerfile-parse.js';
import { DOCKER_DIR, ROOT, hostPathOf, readCompose, readEnvFile } from './deploy-files.js';
import { startNotifyListener } from './notify-listener.js';
import { freePort } from '../support/free-port.js';
import { describeWithTools } from '../support/host-tools.js';

/**
 * `docker compose up` without Docker: the `sim` service's command and the image's own start command
 * (ENTRYPOINT + CMD, run from this checkout as from WORKDIR /opt/stratd) with the compose configs,
 * the image's ENV and the env file; the image's HEALTHCHECK command decides when it is healthy; SIGTERM
 * (docker stop) ends it with exit code 0. Only the addresses change: loopback instead of the compose
 * network (servers a test starts bind 127.0.0.1).
 */
const runtime = parseDockerfile(join(ROOT, 'Dockerfile')).at(-1) as Stage;
const instruction = (keyword: string): string => runtime.instructions.find((i) => i.keyword === keyword)?.args ?? '';
const entrypoint = execForm(instruction('ENTRYPOINT')) ?? [];
const cmd = execForm(instruction('CMD')) ?? [];
const healthCommand = healthcheck(instruction('HEALTHCHECK')).command ?? [];
const imageEnv = Object.fromEntries(assignments(runtime.instructions.filter((i) => i.keyword === 'ENV').map((i) => i.args).join(' ')));
const compose = readCompose();

let dir: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-start-command-'));
});
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** The container's argv as run here: `node` is this node, paths under WORKDIR are this checkout. */
function local(argv: readonly string[], configs: ReadonlyMap<string, string>): string[] {
  return argv.map((arg) => (arg === 'node' ? process.execPath : (configs.get(arg) ?? arg)));
}

function start(argv: readonly string[], env: NodeJS.ProcessEnv): { child: ChildProcess; exited: Promise<number | null>; stderr: () => string } {
  const [command = '', ...args] = argv;
  const child = spawn(command, args, { cwd: ROOT, env: { PATH: process.env['PATH'], ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr += chunk;
  });
  child.stdout?.resume();
  return { child, exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))), stderr: () => stderr };
}

/** Runs the image's HEALTHCHECK command; its exit code (0 healthy, 1 not). */
function healthCheck(url: string): Promise<number | null> {
  return new Promise((resolve) => {
    const check = spawn(process.execPath, healthCommand.slice(1), { env: { STRATD_HEALTH_URL: url }, stdio: 'ignore' });
    check.once('exit', (code) => resolve(code));
  });
}

describeWithTools(['systemd-notify', 'python3'], 'the image’s start command with the compose configs', () => {
  it('starts against the sim service, turns healthy, keeps state in STRATD_STATE_DIR and stops on SIGTERM with exit 0', async () => {
    expect(entrypoint).toEqual(['node', 'bin/stratd.js']);
    expect(healthCommand[0]).toBe('node');

    // The `sim` service: its command, with its config listening on loopback and any free port.
    const simYml = join(dir, 'sim.yml');
    const simText = readFileSync(join(DOCKER_DIR, 'sim.yml'), 'utf8');
    writeFileSync(simYml, simText.replace(/^host: 0\.0\.0\.0$/m, 'host: 127.0.0.1'));
    const simCommand = compose.services['sim']?.command ?? [];
    const sim = start([...local(entrypoint, new Map()), ...simCommand.map((a) => (a.startsWith('/etc/stratd/') ? simYml : a)), '--port', '0', '--json'], {});
    const simInfo = await new Promise<{ baseUrl: string; streamUrl: string }>((resolve, reject) => {
      createInterface({ input: sim.child.stdout as NodeJS.ReadableStream }).once('line', (line) => resolve(JSON.parse(line) as { baseUrl: string; streamUrl: string }));
      void sim.exited.then((code) => reject(new Error(`stratd sim exited with ${String(code)}: ${sim.stderr()}`)));
    });

    try {
      // The `stratd` service: deploy/docker/stratd.yml with the sim's loopback address and a free health port.
      const healthPort = await freePort();
      const configPath = cmd[cmd.indexOf('--config') + 1] ?? '';
      const daemonYml = join(dir, 'stratd.yml');
      const daemonText = readFileSync(hostPathOf(configPath), 'utf8');
      writeFileSync(
        daemonYml,
        daemonText
          .replaceAll('http://sim:8901', simInfo.baseUrl)
          .replaceAll('ws://sim:8901', simInfo.streamUrl)
          .replace('health: { host: 127.0.0.1, port: 9464 }', `health: { host: 127.0.0.1, port: ${healthPort} }`),
      );
      expect(readFileSync(daemonYml, 'utf8')).not.toContain('sim:8901');
      const stateDir = join(dir, 'state');
      mkdirSync(stateDir);
      // As under systemd (Type=notify, WatchdogSec): READY=1 after start-up, WATCHDOG=1 pings, STOPPING=1 on SIGTERM.
      const notify = await startNotifyListener(join(dir, 'notify.sock'));
      const env = {
        ...imageEnv,
        STRATD_STATE_DIR: stateDir,
        ...readEnvFile(join(ROOT, compose.services['stratd']?.env_file ?? '')),
        NOTIFY_SOCKET: notify.address,
        WATCHDOG_USEC: '2000000',
      };
      const daemon = start([...local(entrypoint, new Map()), ...local(cmd, new Map([[configPath, daemonYml]]))], env);

      const healthUrl = `http://127.0.0.1:${healthPort}/healthz`;
      let healthy = false;
      for (let attempt = 0; attempt < 200 && !healthy && daemon.child.exitCode === null; attempt++) {
        healthy = (await healthCheck(healthUrl)) === 0;
        if (!healthy) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      if (!healthy) throw new Error(`stratd never turned healthy (exit ${String(daemon.child.exitCode)}): ${daemon.stderr()}`);
      expect(existsSync(join(stateDir, 'stratd.db'))).toBe(true);

      await notify.waitFor(2, 30_000);
      daemon.child.kill('SIGTERM');
      expect(await daemon.exited).toBe(0);
      expect(await healthCheck(healthUrl)).toBe(1);
      const said = notify.received.map((d) => [...d.assignments.keys()].filter((k) => k !== 'STATUS').join(','));
      await notify.close();
      expect(said[0]).toBe('READY');
      expect(said.slice(1, -1).every((k) => k === 'WATCHDOG')).toBe(true);
      expect(said.filter((k) => k === 'WATCHDOG').length).toBeGreaterThan(0);
      expect(said.at(-1)).toBe('STOPPING');
    } finally {
      sim.child.kill('SIGTERM');
      expect(await sim.exited).toBe(0);
    }
  }, 120_000);
});
