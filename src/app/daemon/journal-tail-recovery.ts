import type { Logger } from '../../core/logger.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { namespaceOfClientOrderId, sequenceOfClientOrderId, strategyOfClientOrderId } from '../../engine/execution/client-order-ids.js';
import type { Executor } from '../../engine/execution/executor.js';
import { isFinishedAlgo, isFinishedOrder } from '../../engine/execution/order-phase.js';
import type { Category } from '../../model/instrument.js';
import type { OrderJournal } from '../../model/journal.js';
import type { ExchangeClient } from '../../venue/exchange-client.js';
import { toAlgoSnapshot, toOrderSnapshot } from '../../venue/port/order-mapping.js';
import { readRecentOrders } from './recent-orders.js';

export interface JournalTailRecovery {
  /** Finished orders of ours the journal did not know, journaled now as done. */
  readonly recovered: number;
}

/**
 * A power cut inside the journal's fsync window (`journal.durability`) can lose the last submissions
 * from the journal although the exchange has them. Before anything trades, the state's own ids on the
 * account's recent orders are matched with the journal:
 * - each strategy's id sequence is moved past the highest sequenced id the exchange has, so an
 *   unkeyed intent never gets the id of an order already sent;
 * - a finished order the journal does not know is journaled as done under its strategy, so an intent
 *   re-emitted with its key fails as DUPLICATE instead of placing the order a second time.
 * Open orders the journal does not know are left to the start-up reconciliation, which adopts them.
 */
export async function recoverJournalTail(options: {
  readonly client: ExchangeClient;
  readonly categories: readonly Category[];
  readonly namespace: string;
  readonly strategies: readonly string[];
  readonly journal: OrderJournal;
  readonly executor: Pick<Executor, 'adopt'>;
  readonly logger: Logger;
}): Promise<Result<JournalTailRecovery, string>> {
  const { namespace, strategies, journal } = options;
  const recent = await readRecentOrders(options.client, options.categories);
  if (!recent.ok) return err(`cannot read the account's recent orders to check the journal's last entries: ${recent.error}`);
  const highest = new Map<string, number>();
  let recovered = 0;
  const own = (clientOrderId: string): string | undefined => {
    if (namespaceOfClientOrderId(clientOrderId) !== namespace) return undefined;
    const strategy = strategyOfClientOrderId(clientOrderId, strategies);
    if (strategy === undefined) return undefined;
    const sequence = sequenceOfClientOrderId(clientOrderId, namespace);
    if (sequence !== undefined && sequence > (highest.get(strategy) ?? 0)) highest.set(strategy, sequence);
    return journal.get(clientOrderId) === undefined ? strategy : undefined;
  };
  for (const row of recent.value.regular) {
    const strategy = own(row.clientOrderId);
    const snapshot = strategy === undefined ? undefined : toOrderSnapshot(row);
    if (strategy === undefined || snapshot?.ok !== true || !isFinishedOrder(snapshot.value)) continue;
    options.executor.adopt(strategy, snapshot.value);
    recovered += 1;
  }
  for (const row of recent.value.algo) {
    const strategy = own(row.clientOrderId);
    const snapshot = strategy === undefined ? undefined : toAlgoSnapshot(row);
    if (strategy === undefined || snapshot?.ok !== true || !isFinishedAlgo(snapshot.value)) continue;
    options.executor.adopt(strategy, snapshot.value);
    recovered += 1;
  }
  for (const [strategy, sequence] of highest) journal.reserveSequence(strategy, sequence);
  if (recovered > 0) options.logger.warn({ recovered }, 'finished orders of this state missing from its journal (a power cut inside the fsync window?): journaled now as done');
  return ok({ recovered });
}
