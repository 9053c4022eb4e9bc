import type { Environment } from '../../settings/secrets.js';

/**
 * What a command writes to and how it reports its exit code (the CLI passes the process's; tests pass
 * their own). Each command's deps say what its standard output and standard error carry.
 */
export interface CommandIo {
  readonly env: Environment;
  /** Standard output: the command's result. */
  readonly out: (text: string) => void;
  /** Standard error: progress, warnings and failures. */
  readonly err: (text: string) => void;
  readonly setExitCode: (code: number) => void;
}
