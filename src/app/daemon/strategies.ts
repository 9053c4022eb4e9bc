import { dirname } from 'node:path';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { StrategyInstance } from '../../engine/strategy/instance.js';
import type { ConfigError } from '../../settings/config-error.js';
import type { DaemonConfig } from '../../settings/daemon-config/daemon-config.js';
import { readYamlFile, validateYaml } from '../../settings/yaml-source.js';
import { loadStrategy } from './strategy-loader.js';

/**
 * The enabled strategies of a config, each with its module loaded and its params validated by the
 * module's own schema; a mistake names the file, line, column and path (strategies[i].params.x).
 */
export async function resolveStrategies(config: DaemonConfig): Promise<Result<StrategyInstance[], ConfigError>> {
  const source = readYamlFile(config.file);
  if (!source.ok) return source;
  const instances: StrategyInstance[] = [];
  for (const [i, settings] of config.strategies.entries()) {
    if (!settings.enabled) continue;
    const at = source.value.locate(['strategies', i, 'module']);
    const definition = await loadStrategy(settings.module, dirname(config.file), { file: config.file, ...at, path: `strategies[${i}].module` });
    if (!definition.ok) return definition;
    const params = validateYaml(source.value, definition.value.params, settings.params, ['strategies', i, 'params']);
    if (!params.ok) return err(params.error);
    instances.push({ id: settings.id, symbols: settings.symbols, definition: definition.value, params: params.value, limits: settings.risk, claims: settings.claims });
  }
  return ok(instances);
}
