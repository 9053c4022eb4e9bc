import { createHook } from 'node:async_hooks';

/** A Node handle (a `Timeout`, a TCP socket's handle) seen made, with its async id. */
export interface SeenHandle {
  readonly id: number;
  readonly type: string;
  readonly handle: { hasRef(): boolean };
}

/** Async ids of the resources that ended (a timer fired or cleared, a handle closed) since this module loaded. */
export const ended = new Set<number>();
let seen: { readonly types: ReadonlySet<string>; readonly into: SeenHandle[] } | undefined;
const hook = createHook({
  init(id, type, _trigger, resource: unknown) {
    if (seen === undefined || !seen.types.has(type)) return;
    if (typeof resource === 'object' && resource !== null && 'hasRef' in resource && typeof resource.hasRef === 'function') {
      seen.into.push({ id, type, handle: resource as { hasRef(): boolean } });
    }
  },
  destroy(id) {
    ended.add(id);
  },
}).enable();
// Async hooks are process-wide and a jest worker runs many test files: left on, this hook would put a
// destroy hook on every promise of every later file in the worker, and keep `ended` (and this file's
// module graph) alive until the worker exits.
afterAll(() => {
  hook.disable();
});

/** The handles of `types` made while `run` runs (synchronously); an async `run`: use `handlesMadeWhile`. */
export function timersMadeBy(run: () => void): SeenHandle[] {
  const into: SeenHandle[] = [];
  seen = { types: new Set(['Timeout']), into };
  try {
    run();
  } finally {
    seen = undefined;
  }
  return into;
}

/** The handles of `types` made from now until `run`'s promise settles (nothing else should run meanwhile). */
export async function handlesMadeWhile(types: readonly string[], run: () => Promise<unknown>): Promise<SeenHandle[]> {
  const into: SeenHandle[] = [];
  seen = { types: new Set(types), into };
  try {
    await run();
  } finally {
    seen = undefined;
  }
  return into;
}

/** Whether the handle keeps the process up: not ended, and not unref'd. */
export function holds(handle: SeenHandle | undefined): boolean {
  if (handle === undefined) throw new Error('no such handle');
  return !ended.has(handle.id) && handle.handle.hasRef();
}
