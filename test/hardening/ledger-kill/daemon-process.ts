import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const BIN = join(process.cwd(), 'bin', 'stratd.js');

/**
 * One life of a spawned `stratd run` (built code: `npm run build` first), read over its health server.
 * With LEDGER_KILL_LOG_LEVEL set (e.g. info) its log lines go to the test's stdout, to read after a failure.
 */
export class DaemonProcess {
  readonly exited: Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcess;
  private stderr = '';

  constructor(
    config: string,
    env: Readonly<Record<string, string>>,
    readonly url: string,
    private readonly token: string,
  ) {
    this.child = spawn(process.execPath, [BIN, 'run', '--config', config], { env: { PATH: process.env['PATH'] ?? '', ...env, STRATD_HEALTH_TOKEN: token }, stdio: ['ignore', process.env['LEDGER_KILL_LOG_LEVEL'] === undefined ? 'ignore' : 'inherit', 'pipe'] });
    this.child.stderr?.setEncoding('utf8');
    this.child.stderr?.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-4000);
    });
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The last lines it wrote to stderr (for a failure message). */
  get lastWords(): string {
    return this.stderr;
  }

  kill(signal: NodeJS.Signals): void {
    if (this.alive) this.child.kill(signal);
  }

  /** Until /readyz answers 200 (a start-up that fails or takes longer than `limitMs` throws). */
  async ready(limitMs = 30_000): Promise<void> {
    await eventually(
      async () => {
        if (!this.alive) throw new Error(`stratd run exited before it was ready: ${this.stderr}`);
        return (await fetch(`${this.url}/readyz`).catch(() => undefined))?.status === 200;
      },
      'the daemon ready',
      limitMs,
    );
  }

  /** GET /status (with the control token), as parsed JSON. */
  async status(): Promise<unknown> {
    const reply = await fetch(`${this.url}/status`, { headers: { authorization: `Bearer ${this.token}` } });
    if (reply.status !== 200) throw new Error(`/status answered ${reply.status}`);
    return (await reply.json()) as unknown;
  }
}

/** Real time passes (loopback I/O, a child process) until `done` holds; the bound only guards a condition that never comes. */
export async function eventually(done: () => Promise<boolean> | boolean, what: string, limitMs: number): Promise<void> {
  const giveUpAt = Date.now() + limitMs;
  while (!(await done())) {
    if (Date.now() > giveUpAt) throw new Error(`gave up waiting for ${what} after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
