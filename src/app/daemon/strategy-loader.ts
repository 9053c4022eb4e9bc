import { existsSync, statSync } from 'node:fs';
import { register } from 'node:module';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { z } from 'zod';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { StrategyDefinition } from '../../engine/strategy/api.js';
import { isMarketEventType } from '../../model/bus-events.js';
import { ConfigError } from '../../settings/config-error.js';

/** strategies/ of the package: next to dist/src when built, next to src when run from source (tests). */
const BUILT_STRATEGIES = fileURLToPath(new URL('../../../strategies/', import.meta.url));
const NAME = /^[a-z0-9][a-z0-9-]*$/;
/** The resolve hook and the entry it points `stratd/strategy` at; compiled only (from source, jest maps the name). */
const ENTRY_HOOK = new URL('./strategy-entry-hook.js', import.meta.url);
const STRATEGY_ENTRY = new URL('../../public/strategy.js', import.meta.url);
let entryHookRegistered = false;

/** Makes `stratd/strategy` resolvable from a user's strategy folder anywhere on disk (once per process). */
function registerStrategyEntry(): void {
  if (entryHookRegistered || !existsSync(fileURLToPath(ENTRY_HOOK))) return;
  register(ENTRY_HOOK, { data: { entry: STRATEGY_ENTRY.href } });
  entryHookRegistered = true;
}

/**
 * Where a strategy module lives: a bare name is a folder of the package's strategies/ (compiled .js,
 * or .ts when running from source); a path (./x, ../x, /x) is the user's own module, relative to the
 * config file.
 */
export function strategyModulePath(module: string, configDir: string): string | undefined {
  if (NAME.test(module)) {
    for (const candidate of [`${module}/index.js`, `${module}/index.ts`]) {
      const file = resolve(BUILT_STRATEGIES, candidate);
      if (existsSync(file)) return file;
    }
    return undefined;
  }
  const file = isAbsolute(module) ? module : resolve(configDir, module);
  for (const candidate of [file, `${file}.js`, resolve(file, 'index.js')]) if (isFile(candidate)) return candidate;
  return undefined;
}

/** A folder is not a module: `./my-strategy` names its index.js. */
function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
}

/** Imports a strategy module and checks that its default export is a strategy definition. */
export async function loadStrategy(module: string, configDir: string, at: ConfigError['location']): Promise<Result<StrategyDefinition, ConfigError>> {
  const file = strategyModulePath(module, configDir);
  if (file === undefined) {
    return err(new ConfigError(`unknown strategy module "${module}" (not a folder of strategies/ nor a file)`, at));
  }
  if (!NAME.test(module)) registerStrategyEntry();
  let loaded: unknown;
  try {
    loaded = await import(pathToFileURL(file).href);
  } catch (error: unknown) {
    return err(new ConfigError(`strategy module "${module}" failed to load: ${error instanceof Error ? error.message : String(error)}`, at));
  }
  const definition = (loaded as { default?: unknown }).default;
  if (!isDefinition(definition)) {
    return err(new ConfigError(`strategy module "${module}" has no default export made with defineStrategy or defineStreamStrategy`, at));
  }
  const kinds: unknown = definition.marketEvents;
  if (kinds !== undefined && !(Array.isArray(kinds) && kinds.every(isMarketEventType))) {
    return err(new ConfigError(`strategy module "${module}": marketEvents must list market event types (such as "market.book")`, at));
  }
  return ok(definition);
}

function isDefinition(value: unknown): value is StrategyDefinition {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { style?: unknown; params?: unknown; create?: unknown; run?: unknown; name?: unknown };
  const schema = v.params as z.ZodType | undefined;
  return (
    typeof v.name === 'string' &&
    typeof schema?.safeParse === 'function' &&
    ((v.style === 'handlers' && typeof v.create === 'function') || (v.style === 'stream' && typeof v.run === 'function'))
  );
}
