import { scrubSecrets } from '../core/secret-text.js';

/**
 * A mistake in the user's configuration or command line: one located, readable message; exit code 2.
 * The message never holds a secret the process knows (a key interpolated into a path, say).
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly reason: string;

  constructor(
    reason: string,
    readonly location: { readonly file?: string; readonly line?: number; readonly column?: number; readonly path?: string } = {},
  ) {
    const scrubbed = scrubSecrets(reason);
    super(formatLocated(scrubbed, location));
    this.reason = scrubbed;
  }
}

function formatLocated(reason: string, at: ConfigError['location']): string {
  const where = [at.file, at.line, at.column].filter((p) => p !== undefined).join(':');
  const path = at.path === undefined || at.path === '' ? '' : `${at.path}: `;
  return `${where === '' ? '' : `${where}: `}${path}${reason}`;
}
