import type { Logger } from '../../core/logger.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { namespaceOfClientOrderId } from '../../engine/execution/client-order-ids.js';
import type { Category } from '../../model/instrument.js';
import type { StateStore } from '../../store/state-file/state-store.js';
import { accountUserId } from '../../venue/api/account-identity.js';
import type { ExchangeClient } from '../../venue/exchange-client.js';
import { readRecentOrders } from './recent-orders.js';

/**
 * Binds the state directory to the exchange account before anything trades:
 * - a state already bound to another account (user id of GET /api/v1/account) is refused;
 * - a state not bound yet (new, or made before states were bound) first reads the account's recent
 *   orders, open and finished, regular and plan/TP-SL, of the traded categories, and keeps a namespace
 *   none of their client order ids carries; then it records the account. From then on its ids
 *   (`<tag>-<namespace>-…`) cannot be ids the account already has.
 * Answers why not, for the start-up error.
 */
export async function bindStateToAccount(store: StateStore, client: ExchangeClient, categories: readonly Category[], logger: Logger): Promise<Result<void, string>> {
  const user = await accountUserId(client.rest);
  if (!user.ok) return err(`cannot read the account's user id (GET /api/v1/account): ${user.error.message}`);
  const userId = user.value;
  const bound = store.identity.account;
  if (bound !== undefined) {
    if (bound === userId) return ok(undefined);
    return err(
      `the state directory (${store.path}) belongs to exchange account ${bound}, but the API key is of account ${userId}: ` +
        'its journal and client order ids are that account\'s. Use the state directory of this account, or a new one',
    );
  }
  const recent = await readRecentOrders(client, categories);
  if (!recent.ok) return err(`cannot read the account's recent orders before the new state's first order: ${recent.error}`);
  const taken = new Set<string>();
  for (const order of [...recent.value.regular, ...recent.value.algo]) {
    const namespace = namespaceOfClientOrderId(order.clientOrderId);
    if (namespace !== undefined) taken.add(namespace);
  }
  const before = store.identity.namespace;
  store.identity.bind(userId, taken);
  logger.info(
    { account: userId, namespace: store.identity.namespace, namespacesOnAccount: taken.size, redrawn: before !== store.identity.namespace },
    'state bound to the exchange account',
  );
  return ok(undefined);
}
