/** External signals: the authenticated POST /signals endpoint, its journal, and the road to the signal strategy. */
export { SIGNAL_SECRET_ENV, SIGNAL_SECRET_FILE, ensureSignalSecret, signalSecretPath } from './secret.js';
export { SIGNATURE_HEADER, TIMESTAMP_HEADER, signSignal } from './auth.js';
export { SIGNAL_JOURNAL_NAMESPACE, SignalJournal } from './journal.js';
export type { SignalRecord } from './journal.js';
export { SIGNAL_STRATEGY, SignalDispatch, signalRef } from './dispatch.js';
export { signalEndpoint } from './endpoint.js';
export type { SignalOutcome } from './endpoint.js';
