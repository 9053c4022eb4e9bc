import { dec } from '../../core/decimal.js';
import { InvariantError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { ParsedRecording } from '../../recording/parsed-recording.js';
import { SweepCombinationRunner } from '../../sweep/combination.js';
import type { SweepJob } from '../../sweep/types.js';
import type { BlockOptions } from './block-bootstrap.js';
import { BlockBootstrap } from './block-bootstrap.js';
import type { ScenarioItem } from './scenario-items.js';
import { scenarioPrng } from './scenario-items.js';
import type { ScenarioOutcome } from './scenario-outcome.js';

/** Everything a bootstrap scenario needs but its item: structured-cloneable, for worker threads. */
export interface BootstrapJob {
  /** The strategies, risk, account and latency of the backtest (a sweep job without axes). */
  readonly backtest: SweepJob;
  readonly seed: number;
  readonly blocks: BlockOptions;
  /** The account's opening equity (summary.json's account.initialEquity). */
  readonly initialEquity: string;
}

/**
 * Runs bootstrap scenarios, one after the other: each re-assembles a synthetic recording from the
 * recording's blocks with its own random stream and runs the strategies on it through the normal
 * backtest (the sweep's combination runner, so modules are imported once).
 */
export class BootstrapScenarioRunner {
  private readonly runner: SweepCombinationRunner;
  private bootstrap: BlockBootstrap | undefined;

  constructor(
    private readonly job: BootstrapJob,
    logger?: Logger,
  ) {
    this.runner = new SweepCombinationRunner({ ...job.backtest, axes: [] }, logger);
  }

  /** The recording to draw blocks from; an error message when it cannot be cut into blocks. */
  useRecording(recording: ParsedRecording): Result<void, string> {
    const bootstrap = BlockBootstrap.of(recording, this.job.blocks);
    if (typeof bootstrap === 'string') return err(bootstrap);
    this.bootstrap = bootstrap;
    return ok(undefined);
  }

  async run(item: ScenarioItem): Promise<Result<ScenarioOutcome, string>> {
    if (item.method !== 'bootstrap') throw new InvariantError('MONTE_CARLO_METHOD', `a ${item.method} scenario was given to the bootstrap runner`);
    if (this.bootstrap === undefined) throw new InvariantError('MONTE_CARLO_RECORDING', 'a bootstrap scenario ran before the recording was given');
    this.runner.useRecording(this.bootstrap.synthetic(scenarioPrng(this.job.seed, item)));
    const outcome = await this.runner.run({ index: item.index, choice: [] });
    if (!outcome.ok) return outcome;
    const m = outcome.value.row.metrics;
    return ok({
      item: item.item,
      method: 'bootstrap',
      index: item.index,
      finalEquity: dec(this.job.initialEquity).add(m.netPnl).toDecimalPlaces(8).toFixed(),
      maxDrawdown: m.maxDrawdown,
      sharpe: m.sharpe,
      trades: m.fills,
    });
  }
}
