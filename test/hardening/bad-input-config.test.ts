import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { prepareRun } from '../../src/app/commands/run.js';
import { ConfigError } from '../../src/settings/config-error.js';
import { defaultYaml } from '../app/daemon/daemon-harness.js';
import { runs } from './bad-input-support.js';

/**
 * Issue 8, broken YAML and bad params: whatever the daemon's config file says (config/default.yml cut at
 * any point, params and settings of the wrong type), `prepareRun` (what `stratd run` does before starting)
 * answers a config or a ConfigError that names the file, line and column: it never throws anything else.
 * The CLI exits 2 with that location on stderr.
 */
const TRUNCATION_RUNS = 300;
const TYPE_SWAP_RUNS = 400;

const BIN = fileURLToPath(new URL('../../bin/stratd.js', import.meta.url));
let dir: string;
let base: string;
let counter = 0;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-bad-config-'));
  base = defaultYaml(join(dir, 'state'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Scalar values a YAML field may hold by mistake, spelled as YAML. */
const WRONG_VALUES: readonly string[] = [
  '"text"', 'text', '[1, 2]', '{ a: 1 }', '-1', '0', '-0.5', '.nan', '.inf', '-.inf', 'null', '~', 'true', 'no', '1e400', '"1e30"', "''", '0x10', '0o17',
  '1_000', '2001-12-14', '*undefined_alias', '&anchor', '!!binary aGVsbG8=', '!!js/function "x"', '[', '{', '"unterminated', "'", '|', '>', '- a', '? x',
  `"${'x'.repeat(5000)}"`, '99999999999999999999999999', '1s', '-1s', '0ms', '10 d', '"*/5 * * *"', '"${NOPE}"', '\t1', '@x', '`x`', '%YAML 1.2',
];

/** One `key: value` line of the file with its value replaced (the first scalar line at or after `pick`). */
function swapValue(text: string, pick: number, value: string): string {
  const lines = text.split('\n');
  for (let k = 0; k < lines.length; k++) {
    const i = (pick + k) % lines.length;
    const line = lines[i] ?? '';
    const match = /^(\s*(?:- )?[\w-]+:\s+)(?!#)(\S[^#]*?)(\s*(?:#.*)?)$/.exec(line);
    if (match === null) continue;
    lines[i] = `${match[1] ?? ''}${value}${match[3] ?? ''}`;
    return lines.join('\n');
  }
  return text;
}

/** Inline maps (`risk: { maxPosition: 10, ... }`) have values too: one of them replaced. */
function swapInlineValue(text: string, pick: number, value: string): string {
  const spots = [...text.matchAll(/([{,]\s*[\w-]+:\s*)([^,}\n]+)/g)];
  const spot = spots[pick % Math.max(1, spots.length)];
  if (spot === undefined || spot.index === undefined) return text;
  const start = spot.index + (spot[1] ?? '').length;
  return text.slice(0, start) + value + text.slice(start + (spot[2] ?? '').length);
}

function write(text: string): string {
  counter += 1;
  const file = join(dir, `config-${counter}.yml`);
  writeFileSync(file, text);
  return file;
}

/** The outcome of `prepareRun` on `text`: ok, or a ConfigError located in the file (anything else fails the property). */
async function expectOkOrLocated(text: string): Promise<void> {
  const file = write(text);
  let prepared: Awaited<ReturnType<typeof prepareRun>>;
  try {
    prepared = await prepareRun({ config: file }, {});
  } catch (error: unknown) {
    throw new Error(`prepareRun threw ${String(error)} on:\n${text.slice(0, 2000)}`);
  }
  if (prepared.ok) return;
  const error = prepared.error;
  if (!(error instanceof ConfigError)) throw new Error(`not a ConfigError: ${String(error)}`);
  const { location } = error;
  if (location.file !== file || typeof location.line !== 'number' || typeof location.column !== 'number' || location.line < 1 || location.column < 1) {
    throw new Error(`a ConfigError without file:line:column (${JSON.stringify(location)}): ${error.message}\n--- on:\n${text.slice(0, 2000)}`);
  }
  expect(error.message.startsWith(`${file}:${location.line}:${location.column}: `)).toBe(true);
}

describe('stratd run: broken YAML and bad values are located config errors', () => {
  it('the packaged default prepares', async () => {
    const prepared = await prepareRun({ config: write(base) }, {});
    if (!prepared.ok) throw prepared.error;
  });

  it(`config/default.yml cut at any point (inside keys, values, comments, flow maps): ${TRUNCATION_RUNS} cases`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: base.length }), fc.constantFrom('', '\n', ' ', '"', '{', '[', ':', '- ', '\t'), async (cut, tail) => expectOkOrLocated(base.slice(0, cut) + tail)),
      runs(TRUNCATION_RUNS),
    );
  });

  it(`values and params of the wrong type (one to three swaps, block or inline, then maybe cut): ${TYPE_SWAP_RUNS} cases`, async () => {
    const swap = fc.tuple(fc.boolean(), fc.nat(), fc.constantFrom(...WRONG_VALUES));
    await fc.assert(
      fc.asyncProperty(fc.array(swap, { minLength: 1, maxLength: 3 }), fc.option(fc.nat(), { freq: 4 }), async (swaps, cut) => {
        let text = base;
        for (const [inline, pick, value] of swaps) text = inline ? swapInlineValue(text, pick, value) : swapValue(text, pick, value);
        await expectOkOrLocated(cut === null ? text : text.slice(0, cut % (text.length + 1)));
      }),
      runs(TYPE_SWAP_RUNS),
    );
  });
});

interface Exit {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `node bin/stratd.js run --config FILE` (the built CLI). */
function stratdRun(file: string): Promise<Exit> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BIN, 'run', '--config', file], { env: { PATH: process.env['PATH'] }, timeout: 15_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : child.exitCode, stdout, stderr });
    });
  });
}

describe('stratd run: broken YAML through the CLI', () => {
  it('an unclosed flow map: exit code 2, stderr names file:line:column', async () => {
    const text = base.replace('risk: { maxPosition: 10, maxOpenOrders: 4, maxOrdersPerMinute: 60 }', 'risk: { maxPosition: 10, maxOpenOrders: 4');
    expect(text).not.toBe(base);
    const file = write(text);
    const exit = await stratdRun(file);
    expect(exit.code).toBe(2);
    expect(exit.stderr).toMatch(new RegExp(`^stratd: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: `));
    expect(exit.stdout).toBe('');
  }, 120_000);
});
