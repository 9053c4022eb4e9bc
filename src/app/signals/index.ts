/** External signals: the authenticated POST /signals endpoint, its journal, and the road to the signal strategy. */
export { SIGNAL_SECRET_ENV, SIGNAL_SECRET_FILE, ensureSignalSecret, signalSecretPath } from './signal-secret.js';
export { SIGNATURE_HEADER, TIMESTAMP_HEADER, signSignal } from './signal-auth.js';
export { SIGNAL_JOURNAL_NAMESPACE, SignalJournal } from './signal-journal.js';
export type { SignalRecord } from './signal-journal.js';
export { SIGNAL_STRATEGY, SignalDispatch, signalRef } from './signal-dispatch.js';
export { signalEndpoint } from './signal-endpoint.js';
export type { SignalOutcome } from './signal-endpoint.js';
