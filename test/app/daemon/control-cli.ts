import { Command, CommanderError } from 'commander';
import { registerControlCommands } from '../../../src/app/commands/control.js';
import { ConfigError } from '../../../src/settings/config-error.js';
import type { Environment } from '../../../src/settings/secrets.js';

export interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `stratd <args>` in-process as cli.ts would: ConfigError and usage errors exit 2. */
export async function stratd(args: readonly string[], env: Environment = {}, cwd?: string): Promise<Ran> {
  const out: string[] = [];
  const errs: string[] = [];
  let code = 0;
  const program = new Command()
    .name('stratd')
    .exitOverride()
    .configureOutput({ writeOut: (t) => errs.push(t), writeErr: (t) => errs.push(t) });
  registerControlCommands(program, {
    env,
    out: (t) => out.push(t),
    err: (t) => errs.push(t),
    setExitCode: (c) => {
      code = c;
    },
    ...(cwd === undefined ? {} : { cwd }),
  });
  try {
    await program.parseAsync([...args], { from: 'user' });
  } catch (error: unknown) {
    if (error instanceof ConfigError) {
      errs.push(`${error.message}\n`);
      code = 2;
    } else if (error instanceof CommanderError) {
      code = error.exitCode === 0 ? 0 : 2;
    } else {
      throw error;
    }
  }
  return { code, stdout: out.join(''), stderr: errs.join('') };
}

/** stdout as one parsed JSON line. */
export function jsonOf(ran: Ran): Record<string, unknown> {
  return JSON.parse(ran.stdout) as Record<string, unknown>;
}
