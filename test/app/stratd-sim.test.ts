import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

const run = promisify(execFile);
const BIN = join(process.cwd(), 'bin', 'stratd.js');

interface SimInfo {
  readonly baseUrl: string;
  readonly streamUrl: string;
  readonly catalogUrl: string;
  readonly accounts: ReadonlyArray<{ readonly name: string; readonly apiKey: string; readonly secret: string; readonly readOnly: boolean; readonly accountType: string }>;
  readonly catalogToken: string;
  readonly adminToken: string;
}

/** Starts `stratd sim --json`, waits for its one JSON line, and returns it with a stop function. */
async function startSim(args: readonly string[]): Promise<{ readonly info: SimInfo; readonly stop: () => Promise<number | null> }> {
  const child = spawn(process.execPath, [BIN, 'sim', '--json', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`stratd sim exited with ${String(code)}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    info: JSON.parse(first) as SimInfo,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

describe('stratd sim', () => {
  it('prints one JSON line with its URLs and every account of config/sim.yml, serves, and stops cleanly on SIGTERM', async () => {
    const sim = await startSim([]);
    try {
      expect(sim.info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(sim.info.streamUrl).toBe(sim.info.baseUrl.replace('http', 'ws'));
      expect(sim.info.catalogUrl).toBe(`${sim.info.baseUrl}/catalog`);
      expect(sim.info.accounts.map((a) => [a.name, a.readOnly, a.accountType])).toEqual([
        ['trader', false, 'FUTURES'],
        ['read-only', true, 'FUTURES'],
        ['sub-account', false, 'FUTURES'],
        ['copy-trading', false, 'COPY_TRADING'],
      ]);
      const time = (await (await fetch(`${sim.info.baseUrl}/api/v1/time`)).json()) as { serverTime: number };
      expect(typeof time.serverTime).toBe('number');
      const depth = (await (await fetch(`${sim.info.baseUrl}/quote/v1/depth?symbol=BTC-SWAP-USDT&limit=20`)).json()) as { b: unknown[]; a: unknown[] };
      expect(depth.b.length).toBe(20);
      expect(depth.a.length).toBe(20);
    } finally {
      expect(await sim.stop()).toBe(0);
    }
    // Its start-up shares the machine with the four refused ones below (launched with it).
  }, 120_000);

  it('takes faults on the command line and reports them at the admin endpoint', async () => {
    const sim = await startSim(['--fault', 'latencyMs=5', '--fault', 'http5xxRate=0.5', '--seed', '9']);
    try {
      const reply = await fetch(`${sim.info.baseUrl}/admin/faults`, { headers: { authorization: `Bearer ${sim.info.adminToken}` } });
      expect(await reply.json()).toMatchObject({ latencyMs: 5, http5xxRate: 0.5 });
      expect((await fetch(`${sim.info.baseUrl}/admin/faults`)).status).toBe(401);
    } finally {
      await sim.stop();
    }
  }, 120_000);

  const MISTAKES: ReadonlyArray<readonly [string, readonly string[], RegExp]> = [
    ['a config mistake, located', ['--config', 'BAD'], /sim\.yml:\d+:\d+.*users\[0\]\.email/],
    ['an unknown fault', ['--fault', 'gremlins=1'], /--fault gremlins=1: expected name=value/],
    ['a fault out of range', ['--fault', 'http5xxRate=2'], /--fault http5xxRate:/],
    ['a bad port', ['--port', 'x'], /--port x/],
  ];
  /** The four refused start-ups, launched at once when the suite starts (each its own process); each test reads its own. */
  const refused = new Map<string, Promise<{ code: unknown; stderr: string }>>();
  let dir: string | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'stratd-sim-'));
    const bad = join(dir, 'sim.yml');
    writeFileSync(bad, 'users:\n  - userId: "1"\n    email: not-an-email\nkeys: []\n');
    for (const [what, args] of MISTAKES) {
      const argv = args.map((a) => (a === 'BAD' ? bad : a));
      refused.set(
        what,
        run(process.execPath, [BIN, 'sim', '--json', ...argv]).then(
          () => ({ code: 0, stderr: 'expected a non-zero exit' }),
          (error: unknown) => error as { code: unknown; stderr: string },
        ),
      );
    }
  });
  // The refused runs are awaited first (a test that failed before its own await leaves them running).
  afterAll(async () => {
    await Promise.all(refused.values());
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it.each(MISTAKES)('exits 2 with one readable message for %s', async (what, _args, message) => {
    const e = await refused.get(what)!;
    expect(e.code).toBe(2);
    expect(e.stderr).toMatch(message);
    expect(e.stderr.split('\n').filter((l) => l !== '')).toHaveLength(1);
  });
});
