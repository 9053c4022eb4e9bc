import type { InitializeHook, ResolveHook } from 'node:module';

/**
 * A module resolve hook (registered with node:module `register`): `stratd/strategy` imported by a
 * user's strategy kept outside the package (no node_modules/stratd next to it) resolves to the
 * running daemon's own entry, so the strategy shares the daemon's modules (one Decimal class).
 */
let entry: string | undefined;

export const initialize: InitializeHook<{ readonly entry: string }> = (data) => {
  entry = data.entry;
};

export const resolve: ResolveHook = (specifier, context, nextResolve) => {
  if (specifier === 'stratd/strategy' && entry !== undefined) return { url: entry, shortCircuit: true };
  return nextResolve(specifier, context);
};
