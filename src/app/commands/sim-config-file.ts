import { z } from 'zod';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { ConfigError } from '../../settings/config-error.js';
import { parseDuration } from '../../settings/duration.js';
import { readYamlFile, validateYaml } from '../../settings/yaml-source.js';
import type { SimConfig } from '../../sim/config/sim-config.js';
import { simConfigSchema } from '../../sim/config/sim-config.js';
import { faultSettingsSchema } from '../../sim/config/fault-settings.js';
import { DEFAULT_SIM_CONFIG } from '../default-configs.js';

export interface SimFlags {
  readonly port?: string;
  readonly seed?: string;
  readonly config?: string;
  readonly json?: boolean;
  readonly fault?: readonly string[];
  /** How much market history to generate before now, e.g. 6h (market.historyMs). */
  readonly history?: string;
}

const portFlag = z.coerce.number().int().min(0).max(65_535);
const seedFlag = z.coerce.number().int().min(0).max(2 ** 32 - 1);

/** The sim config file with the command line's overrides applied; every mistake is located. */
export function loadSimConfig(flags: SimFlags): Result<SimConfig, ConfigError> {
  const file = flags.config ?? DEFAULT_SIM_CONFIG;
  const source = readYamlFile(file);
  if (!source.ok) return source;
  const config = validateYaml(source.value, simConfigSchema);
  if (!config.ok) return config;
  let result: SimConfig = config.value;
  if (flags.port !== undefined) {
    const port = portFlag.safeParse(flags.port);
    if (!port.success) return err(new ConfigError(`--port ${flags.port}: a port number from 0 to 65535`, {}));
    result = { ...result, port: port.data };
  }
  if (flags.seed !== undefined) {
    const seed = seedFlag.safeParse(flags.seed);
    if (!seed.success) return err(new ConfigError(`--seed ${flags.seed}: an integer from 0 to 4294967295`, {}));
    result = { ...result, seed: seed.data };
  }
  if (flags.history !== undefined) {
    const historyMs = parseDuration(flags.history);
    if (historyMs === undefined || historyMs < 60_000 || historyMs > 30 * 86_400_000) return err(new ConfigError(`--history ${flags.history}: a duration from 1m to 30d, e.g. 6h`, {}));
    result = { ...result, market: { ...result.market, historyMs } };
  }
  const faults: Record<string, unknown> = { ...result.faults };
  for (const assignment of flags.fault ?? []) {
    const at = assignment.indexOf('=');
    const name = at > 0 ? assignment.slice(0, at) : '';
    const value = Number(assignment.slice(at + 1));
    if (name === '' || !(name in result.faults)) return err(new ConfigError(`--fault ${assignment}: expected name=value with a name among ${Object.keys(result.faults).join(', ')}`, {}));
    faults[name] = value;
  }
  const checked = faultSettingsSchema.safeParse(faults);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    return err(new ConfigError(`--fault ${String(issue?.path[0] ?? '')}: ${issue?.message ?? 'invalid'}`, {}));
  }
  return ok({ ...result, faults: checked.data });
}
