import { VirtualClock } from '../../../src/core/virtual-time.js';
import type { Result } from '../../../src/core/result.js';
import type { SimConfig } from '../../../src/sim/config/sim-config.js';
import { simConfigSchema } from '../../../src/sim/config/sim-config.js';
import { SimulatedExchange } from '../../../src/sim/simulated-exchange.js';
import { readYamlFile, validateYaml } from '../../../src/settings/yaml-source.js';
import { ExchangeClient } from '../../../src/venue/exchange-client.js';
import type { ExchangeClientOptions } from '../../../src/venue/exchange-client.js';
import type { VenueError } from '../../../src/venue/venue-error.js';

/** 2026-01-01 00:00 UTC: every simulator of these suites starts here, in virtual time. */
export const T0 = 1_767_225_600_000;
export const MINUTE = 60_000;
export const BTC = 'BTC-SWAP-USDT';
export const ETH = 'ETH-SWAP-USDT';
export const BTC_USDC = 'BTC-SWAP-USDC';

/** config/sim.yml as `stratd sim` reads it, on a free port, optionally with another seed. */
export function simConfig(overrides: { readonly seed?: number } = {}): SimConfig {
  const source = readYamlFile(new URL('../../../config/sim.yml', import.meta.url).pathname);
  if (!source.ok) throw source.error;
  const base = validateYaml(source.value, simConfigSchema);
  if (!base.ok) throw base.error;
  return { ...base.value, port: 0, ...(overrides.seed === undefined ? {} : { seed: overrides.seed }) };
}

export interface RunningSim {
  readonly sim: SimulatedExchange;
  readonly clock: VirtualClock;
  readonly config: SimConfig;
  /** A client with the named key of the sim config (trader, read-only, sub-account, copy-trading). */
  client(name: string, extra?: Partial<ExchangeClientOptions>): ExchangeClient;
  /** A client without credentials (public market data). */
  publicClient(): ExchangeClient;
  stop(): Promise<void>;
}

/**
 * One simulator on config/sim.yml and a virtual clock that starts at T0; the market is advanced
 * `warmupMs` so books and trades exist before the first request. Market ticks default to 1 s (not the
 * simulator's 100 ms): the simulator reschedules its tick with `this.schedule`, which VirtualTimeScheduler
 * turns into one more nested action per tick, and stop() overflows the stack after a few thousand.
 */
export async function startSim(options: { readonly seed?: number; readonly warmupMs?: number; readonly tickMs?: number } = {}): Promise<RunningSim> {
  const config = simConfig(options);
  const clock = new VirtualClock(T0);
  const sim = await SimulatedExchange.start({ config, time: clock, tickMs: options.tickMs ?? 1000 });
  clock.advanceBy(options.warmupMs ?? 5 * MINUTE);
  const { baseUrl } = sim.address;
  return {
    sim,
    clock,
    config,
    client: (name, extra = {}) => {
      const key = config.keys.find((k) => k.name === name);
      if (key === undefined) throw new Error(`no key ${name} in the sim config`);
      return new ExchangeClient({ baseUrl, credentials: { apiKey: key.apiKey, apiSecret: key.secret }, time: clock, timeoutMs: 3000, ...extra });
    },
    publicClient: () => new ExchangeClient({ baseUrl, time: clock, timeoutMs: 3000 }),
    stop: () => sim.stop(),
  };
}

/** The value of a successful call; a failure fails the test with the venue error's text. */
export function value<T>(result: Result<T, VenueError>): T {
  if (!result.ok) throw new Error(`expected success, got ${result.error.message} ${JSON.stringify(result.error.toJSON())}`);
  return result.value;
}

/** The error of a failed call. */
export function failure<T>(result: Result<T, VenueError>): VenueError {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result.error;
}
