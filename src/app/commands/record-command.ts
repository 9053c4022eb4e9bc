import type { Command } from 'commander';
import type { RecordCommandDeps, RecordFlags } from './record.js';

export type { RecordCommandDeps } from './record.js';

/** `stratd record`: the daemon's sources without strategies, written as a market-stream recording. */
export function registerRecordCommand(program: Command, deps: RecordCommandDeps): Command {
  return program
    .command('record')
    .description("record the config's market data (and the account's events) as a market-stream recording, without running strategies")
    .requiredOption('--out <file>', 'recording file (.jsonl, or .jsonl.gz for gzip); the account section goes next to it as <name>.account.jsonl')
    .option('--config <file>', 'daemon config whose market section says what to record (default config/default.yml)')
    .option('--state-dir <dir>', 'journal and state directory (as for run)')
    .option('--duration <d>', 'stop after this long (e.g. 30m, 2h); else at SIGINT/SIGTERM')
    .option('--gzip', 'gzip the files (adds .gz to the names)')
    .option('--force', 'overwrite existing files')
    .option('--next', 'when the files exist, write the next numbered part beside them (rec.0001.jsonl, …)')
    .option('--rotate-size <size>', 'start a new numbered file at this size on disk, e.g. 100MB')
    .option('--rotate-every <d>', 'start a new numbered file at every multiple of this in exchange time, e.g. 1h')
    .option('--no-account', 'do not write the account section')
    .action(async (flags: RecordFlags) => {
      const { runRecord } = await import('./record.js');
      await runRecord(flags, deps);
    });
}
