import { dirname, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import type { Result } from '../../core/result.js';
import { knownSecrets } from '../../core/secret-text.js';
import { err, ok } from '../../core/result.js';
import type { GlobalRiskLimits, RiskLimits } from '../../model/risk-limits.js';
import type { ConfigError } from '../config-error.js';
import { checkDaemonFile } from './checks.js';
import { interpolateEnv } from './env.js';
import { logLevelFrom } from '../log-level-env.js';
import { locatedError, validateSection } from './locate.js';
import { daemonFileSchema, modeSchema } from './schema.js';
import type { DaemonFile } from './schema.js';
import { checkNotifySecretReferences, notifySettings } from './notify.js';
import { checkSecretReferences } from './secrets.js';
import type { DaemonConfig, HealthSettings, StrategySettings } from './types.js';
import type { SectionContext } from './venue.js';
import { catalogSource, followerSettings, liveVenue, paperVenue } from './venue.js';
import type { Environment } from '../secrets.js';
import { readYamlFile } from '../yaml-source.js';

export type * from './types.js';

export interface LoadDaemonConfigOptions {
  readonly env: Environment;
  /** --state-dir: wins over STRATD_STATE_DIR and the file. */
  readonly stateDirFlag?: string;
  /** Relative command-line paths resolve against it (default: the process's working directory). */
  readonly cwd?: string;
  /** The simulator YAML used in paper mode when sim.config is not given (the packaged config/sim.yml). */
  readonly defaultSimConfig?: string;
}

const DEFAULT_STATE_DIR = './state';

/**
 * Reads `stratd run --config FILE`. Every mistake is one ConfigError naming the file, line, column and
 * path. `${NAME}` in string values reads the environment (an unset variable is an error, except in the
 * section the mode does not use: exchange in paper mode, sim in live mode). Relative paths in the file
 * resolve against the file's directory.
 */
export function loadDaemonConfig(path: string, options: LoadDaemonConfigOptions): Result<DaemonConfig, ConfigError> {
  const cwd = options.cwd ?? process.cwd();
  // Values of variables named like secrets are never printed, wherever the config puts them (a key written as a file path).
  knownSecrets.addEnvironment(options.env);
  const file = resolve(cwd, path);
  const read = readYamlFile(file);
  if (!read.ok) return read;
  const source = read.value;
  const mode = validateSection(source, z.looseObject({ mode: modeSchema }), source.value, []);
  if (!mode.ok) return mode;
  const unused = mode.value.mode === 'paper' ? 'exchange' : 'sim';
  const refs = checkSecretReferences(source, source.value, unused);
  if (!refs.ok) return refs;
  const notifyRefs = checkNotifySecretReferences(source, source.value);
  if (!notifyRefs.ok) return notifyRefs;
  const { value, missing } = interpolateEnv(source.value, options.env);
  const unset = missing.find((m) => m.path[0] !== unused);
  if (unset !== undefined) return err(locatedError(source, `environment variable ${unset.name} is not set`, unset.path));
  const parsed = validateSection(source, daemonFileSchema, value, []);
  if (!parsed.ok) return parsed;
  const top = parsed.value;
  const configDir = dirname(file);
  const ctx: SectionContext = { source, value, configDir, env: options.env };
  const catalog = catalogSource(ctx, top.mode);
  if (!catalog.ok) return catalog;
  const checked = checkDaemonFile(source, top, catalog.value !== undefined);
  if (!checked.ok) return checked;
  const venue = top.mode === 'paper' ? paperVenue(ctx, options.defaultSimConfig) : liveVenue(ctx);
  if (!venue.ok) return venue;
  const follower = followerSettings(ctx, top.follower, venue.value);
  if (!follower.ok) return follower;
  const notify = notifySettings(source, top.notify, top.mode, configDir);
  if (!notify.ok) return notify;
  const level = logLevelFrom(options.env, top.log.level);
  if (!level.ok) return level;
  return ok({
    file,
    venue: venue.value,
    stateDir: stateDir(top, options, cwd, configDir),
    market: top.market.map((m) => defined(m)),
    userStream: top.userStream,
    jobs: defined(top.jobs),
    ...(catalog.value === undefined ? {} : { catalog: catalog.value }),
    risk: defined(top.risk) satisfies GlobalRiskLimits,
    strategies: top.strategies.map(
      (s): StrategySettings => ({ id: s.id, module: s.module, symbols: s.symbols, params: s.params, risk: defined(s.risk) satisfies RiskLimits, enabled: s.enabled, claims: s.claims }),
    ),
    orphans: top.orphans,
    shutdown: top.shutdown,
    journal: top.journal,
    health: healthSettings(top.health, configDir),
    ...(follower.value === undefined ? {} : { follower: follower.value }),
    log: { level: level.value, summaryEveryMs: top.log.summaryEvery },
    ...(notify.value === undefined ? {} : { notify: notify.value }),
    ...(top.signals === undefined ? {} : { signals: top.signals }),
    ...(top.record === undefined ? {} : { record: { ...top.record, out: isAbsolute(top.record.out) ? top.record.out : resolve(configDir, top.record.out) } }),
    errorAt: (reason, at) => locatedError(source, reason, at),
  });
}

function stateDir(top: DaemonFile, options: LoadDaemonConfigOptions, cwd: string, configDir: string): string {
  return resolveStateDir(top.stateDir, { ...options, cwd, configDir });
}

/** --state-dir, else STRATD_STATE_DIR, else `stateDir:` (relative to the config file), else ./state (also what the control commands read). */
export function resolveStateDir(
  written: string | undefined,
  where: { readonly env: Environment; readonly stateDirFlag?: string; readonly cwd: string; readonly configDir: string },
): string {
  const fromEnv = where.env['STRATD_STATE_DIR'];
  if (where.stateDirFlag !== undefined && where.stateDirFlag !== '') return resolve(where.cwd, where.stateDirFlag);
  if (fromEnv !== undefined && fromEnv.trim() !== '') return resolve(where.cwd, fromEnv.trim());
  if (written !== undefined) return isAbsolute(written) ? written : resolve(where.configDir, written);
  return resolve(where.cwd, DEFAULT_STATE_DIR);
}

function healthSettings(health: DaemonFile['health'], configDir: string): HealthSettings {
  const { tls, ...rest } = health;
  const path = (file: string): string => (isAbsolute(file) ? file : resolve(configDir, file));
  return { ...rest, ...(tls === undefined ? {} : { tls: { cert: path(tls.cert), key: path(tls.key) } }) };
}

type Defined<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & { [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined> };

/** Drops keys whose value is undefined (zod's optional output vs exactOptionalPropertyTypes). */
function defined<T extends object>(value: T): Defined<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Defined<T>;
}
