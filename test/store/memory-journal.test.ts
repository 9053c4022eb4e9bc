import { MemoryJournal } from '../../src/store/memory-journal.js';
import { describeJournalContract } from './journal-contract.js';

// Backtests and sweeps journal in memory: the same contract as the SQLite journal of `stratd run`.
describeJournalContract('MemoryJournal semantics', () => ({ journal: new MemoryJournal(), close: () => undefined }));
