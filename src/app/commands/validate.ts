import { readdirSync } from 'node:fs';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { ConfigError } from '../../settings/config-error.js';
import type { DaemonConfig } from '../../settings/daemon-config/daemon-config.js';
import type { StrategyParamsSchema } from '../../settings/daemon-config/json-schema.js';
import { renderDaemonConfigJsonSchema } from '../../settings/daemon-config/json-schema.js';
import type { Environment } from '../../settings/secrets.js';
import { resolveStrategies } from '../daemon/strategies.js';
import { packageFile } from '../package-files.js';
import type { RunFlags } from './prepare-run.js';
import { prepareRun } from './prepare-run.js';
import { loadStrategy, strategyModulePath } from '../daemon/strategy-loader.js';
import type { CommandIo } from './command-io.js';

/** A user mistake (config, arguments): cli.ts's exit code for ConfigError. */
const EXIT_USAGE = 2;

/** Standard output: the one "ok:" line, or the JSON Schema. Standard error: the located mistake. */
export type ValidateCommandDeps = CommandIo;

/** What a valid config amounts to. */
export interface ValidConfig {
  readonly file: string;
  readonly mode: 'paper' | 'live';
  /** Paper on the live market (`sim.market: live`). */
  readonly market?: 'live';
  readonly strategies: number;
  readonly disabled: number;
  /** Market and strategy symbols, in the file's order. */
  readonly symbols: readonly string[];
}

/** `stratd validate`'s work, loaded only when the command runs (validate-command.ts registers it). */
export async function validateAction(flags: RunFlags & { printSchema?: boolean }, deps: ValidateCommandDeps): Promise<void> {
  if (flags.printSchema === true) {
    deps.out(await publishedConfigSchema());
    return;
  }
  const checked = await validateConfig(flags, deps.env);
  if (!checked.ok) {
    deps.err(`stratd: ${checked.error.message}\n`);
    deps.setExitCode(EXIT_USAGE);
    return;
  }
  deps.out(`${summary(flags.config ?? checked.value.file, checked.value)}\n`);
  deps.setExitCode(0);
}

/** `stratd run`'s preparation, plus the params of disabled strategies (a later `strategies start` needs them valid). */
export async function validateConfig(flags: RunFlags, env: Environment): Promise<Result<ValidConfig, ConfigError>> {
  const prepared = await prepareRun(flags, env);
  if (!prepared.ok) return prepared;
  const { config } = prepared.value;
  const disabled = config.strategies.filter((s) => !s.enabled).length;
  if (disabled > 0) {
    const all = await resolveStrategies({ ...config, strategies: config.strategies.map((s) => ({ ...s, enabled: true })) });
    if (!all.ok) return all;
  }
  return ok({ file: config.file, mode: config.venue.mode, ...(config.venue.mode === 'paper' && config.venue.live !== undefined ? { market: 'live' as const } : {}), strategies: config.strategies.length, disabled, symbols: symbolsOf(config) });
}

/** "ok: FILE (mode, N strategies, symbols)". */
export function summary(file: string, valid: ValidConfig): string {
  const strategies = `${valid.strategies} ${valid.strategies === 1 ? 'strategy' : 'strategies'}${valid.disabled > 0 ? ` (${valid.disabled} disabled)` : ''}`;
  const symbols = valid.symbols.length === 0 ? 'no symbols' : valid.symbols.join(', ');
  return `ok: ${file} (${valid.market === 'live' ? 'paper on live market' : valid.mode}, ${strategies}, ${symbols})`;
}

/** The packaged strategy modules (folders of strategies/) with their params schemas. */
export async function packagedStrategyParams(): Promise<Result<StrategyParamsSchema[], ConfigError>> {
  const folder = packageFile('strategies');
  const names = readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && strategyModulePath(entry.name, folder) !== undefined)
    .map((entry) => entry.name)
    .sort();
  const found: StrategyParamsSchema[] = [];
  for (const name of names) {
    const definition = await loadStrategy(name, folder, { file: folder });
    if (!definition.ok) return err(definition.error);
    found.push({ module: name, params: definition.value.params });
  }
  return ok(found);
}

/** schema/stratd-config.schema.json as it should read: the config schema with the packaged strategies' params. */
export async function publishedConfigSchema(): Promise<string> {
  const strategies = await packagedStrategyParams();
  if (!strategies.ok) throw strategies.error;
  return renderDaemonConfigJsonSchema(strategies.value);
}

function symbolsOf(config: DaemonConfig): string[] {
  return [...new Set([...config.market.map((m) => m.symbol), ...config.strategies.flatMap((s) => s.symbols)])];
}
