import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../support/free-port.js';
import { waitFor } from '../../venue/stream/session-harness.js';
import { paperYaml } from './daemon-harness.js';
import { parseMetrics, sample } from './metrics-scrape.js';

/**
 * `stratd run` (paper mode, its simulator embedded) under a low descriptor limit (ulimit -n 512: Node opens the modules it loads at start several at once, and the module graph has grown past 256 files), while
 * 600 idle connections are thrown at its health server from one loopback address: those beyond the
 * per-address cap are closed at once, the daemon's own market polls go on, /status still answers,
 * and no EMFILE shows up among its errors. Bounded counts, loopback only.
 */
const BIN = fileURLToPath(new URL('../../../bin/stratd.js', import.meta.url));
const FLOOD = 600;
const PER_ADDRESS = 8;

let dir: string;
let child: ChildProcess | undefined;
const sockets: Socket[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-slow-connections-'));
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  if (child !== undefined && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

async function text(url: string, token?: string): Promise<string | undefined> {
  try {
    const reply = await fetch(url, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });
    return reply.status === 200 ? await reply.text() : undefined;
  } catch {
    return undefined;
  }
}

/** Waits for an async condition with a deadline (the child runs on real time). */
async function eventually(check: () => Promise<boolean>, what: string, limitMs = 30_000): Promise<void> {
  const giveUpAt = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > giveUpAt) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Market events the daemon has taken in, by socket or by poll (config/default.yml's channels are `via: ws`). */
async function marketEvents(base: string): Promise<number> {
  const body = await text(`${base}/metrics`);
  if (body === undefined) return -1;
  return parseMetrics(body)
    .filter((m) => m.name === 'stratd_events_total' && m.labels['source'] === 'market')
    .reduce((sum, m) => sum + m.value, 0);
}

describe('slow connections against a daemon with few descriptors', () => {
  it('beyond the per-address cap they are closed; the daemon keeps taking market data and answering', async () => {
    const port = await freePort();
    const stateDir = join(dir, 'state');
    const config = join(dir, 'paper.yml');
    writeFileSync(config, paperYaml(stateDir).replace('health: { host: 127.0.0.1, port: 0 }', `health: { host: 127.0.0.1, port: ${port}, maxConnectionsPerAddress: ${PER_ADDRESS} }`));
    let stderr = '';
    child = spawn('sh', ['-c', `ulimit -n 512 && exec "${process.execPath}" "${BIN}" run --config "${config}"`], { env: { PATH: process.env['PATH'] ?? '' }, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
    });
    const base = `http://127.0.0.1:${port}`;
    await eventually(async () => {
      if (child?.exitCode !== null) throw new Error(`stratd run exited: ${stderr}`);
      return (await text(`${base}/readyz`)) !== undefined;
    }, 'the daemon ready');
    const token = readFileSync(join(stateDir, 'control.token'), 'utf8').trim();

    let closed = 0;
    for (let i = 0; i < FLOOD; i += 1) {
      const socket = connect({ host: '127.0.0.1', port, localAddress: '127.0.0.2' });
      socket.on('error', () => undefined);
      socket.once('close', () => {
        closed += 1;
      });
      sockets.push(socket);
    }
    await waitFor(() => closed >= FLOOD - PER_ADDRESS, 'the connections over the cap closed', 30_000);

    // While 127.0.0.2 holds its share, the daemon takes market data on and answers.
    const before = await marketEvents(base);
    expect(before).toBeGreaterThan(0);
    await eventually(async () => (await marketEvents(base)) > before + 2, 'more market events');
    const status = await text(`${base}/status`, token);
    expect(status).toBeDefined();
    expect(status).not.toContain('EMFILE');
    expect(stderr).not.toContain('EMFILE');
    expect(sample(parseMetrics((await text(`${base}/metrics`)) ?? ''), 'stratd_health_connections_refused_total', {})).toBeGreaterThanOrEqual(FLOOD - PER_ADDRESS);
  }, 120_000);
});
