import { nextPhase } from '../../../src/engine/execution/order-phase.js';
import type { PhaseInput } from '../../../src/engine/execution/order-phase.js';
import type { JournalState } from '../../../src/model/journal.js';

const sent: PhaseInput = { kind: 'sent' };
const lost: PhaseInput = { kind: 'lost' };
const refused: PhaseInput = { kind: 'refused' };
const absent: PhaseInput = { kind: 'absent' };
const open: PhaseInput = { kind: 'exists', finished: false };
const finished: PhaseInput = { kind: 'exists', finished: true };

describe('the order state machine', () => {
  test.each<[JournalState, PhaseInput, JournalState]>([
    ['pending', sent, 'sent'],
    ['sent', open, 'accepted'],
    ['sent', finished, 'done'],
    ['sent', refused, 'rejected'],
    ['sent', lost, 'unknown'],
    ['unknown', open, 'accepted'],
    ['unknown', absent, 'rejected'],
    // Evidence beats a lost reply that arrives after the stream event.
    ['accepted', lost, 'accepted'],
    ['accepted', refused, 'accepted'],
    ['accepted', finished, 'done'],
    ['accepted', absent, 'done'],
    // A late event shows a rejected order exists after all.
    ['rejected', open, 'accepted'],
    ['rejected', absent, 'rejected'],
    // Done is final.
    ['done', open, 'done'],
    ['done', lost, 'done'],
  ])('%s + %o → %s', (from, input, to) => {
    expect(nextPhase(from, input)).toBe(to);
  });
});
