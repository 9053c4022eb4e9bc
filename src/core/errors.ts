/** A broken invariant: a bug or an impossible state. Thrown; the supervisor restarts and reconciles. */
export class InvariantError extends Error {
  override readonly name = 'InvariantError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}

export function assertNever(value: never, what = 'value'): never {
  throw new InvariantError('UNREACHABLE', `unexpected ${what}: ${JSON.stringify(value)}`);
}

export function invariant(condition: unknown, code: string, message: string): asserts condition {
  if (!condition) throw new InvariantError(code, message);
}
