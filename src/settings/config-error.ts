/** A mistake in the user's configuration or command line: one located, readable message; exit code 2. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly reason: string,
    readonly location: { readonly file?: string; readonly line?: number; readonly column?: number; readonly path?: string } = {},
  ) {
    super(formatLocated(reason, location));
  }
}

function formatLocated(reason: string, at: ConfigError['location']): string {
  const where = [at.file, at.line, at.column].filter((p) => p !== undefined).join(':');
  const path = at.path === undefined || at.path === '' ? '' : `${at.path}: `;
  return `${where === '' ? '' : `${where}: `}${path}${reason}`;
}
