import type { Command } from 'commander';
import type { RunFlags } from './prepare-run.js';
import type { ValidateCommandDeps } from './validate.js';

export type { ValidateCommandDeps } from './validate.js';

/**
 * `stratd validate --config FILE [--state-dir DIR]`: everything `stratd run` checks before it starts
 * (the YAML, `${NAME}` variables, secret files, the simulator config, every strategy module and its
 * params, disabled strategies included) without starting anything. `--print-schema` prints the JSON
 * Schema of the YAML instead (schema/stratd-config.schema.json is its output).
 */
export function registerValidateCommand(program: Command, deps: ValidateCommandDeps): Command {
  return program
    .command('validate')
    .description('check a daemon config and its strategies’ params without starting anything; exit 2 on a mistake')
    .option('--config <file>', 'daemon config (default config/default.yml)')
    .option('--state-dir <dir>', 'as for run (else STRATD_STATE_DIR, else the config); not created')
    .option('--print-schema', 'print the JSON Schema of the config (editors: yaml-language-server) and exit')
    .action(async (flags: RunFlags & { printSchema?: boolean }) => {
      const { validateAction } = await import('./validate.js');
      await validateAction(flags, deps);
    });
}
