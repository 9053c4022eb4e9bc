import { VenueError } from '../../../src/venue/venue-error.js';
import { legFailure, toExchangeFailure } from '../../../src/venue/port/failure-mapping.js';

/** VenueError → ExchangeFailure, kind by kind (the live paths are covered against the simulator). */
const E = 'POST /api/v2/futures/order';

describe('toExchangeFailure', () => {
  it.each([
    [{ kind: 'rejected', code: -1131 }, 'write', { kind: 'rejected', code: '-1131', retryable: false }],
    [{ kind: 'rejected', code: -1001 }, 'write', { kind: 'rejected', code: '-1001', retryable: true }],
    [{ kind: 'rejected', code: -2013 }, 'read', { kind: 'not-found', code: '-2013', retryable: false }],
    [{ kind: 'rejected', code: '-2013' }, 'write', { kind: 'not-found', code: '-2013' }],
    [{ kind: 'unknown-status', httpStatus: 503 }, 'write', { kind: 'unknown', code: 'unknown', retryable: true }],
    [{ kind: 'rate-limited', code: -1003, retryAt: 123 }, 'read', { kind: 'throttled', code: '-1003', retryable: true, retryAt: 123 }],
    [{ kind: 'banned', httpStatus: 418 }, 'read', { kind: 'throttled', code: 'throttled', retryable: false }],
    [{ kind: 'malformed-response', field: 'orderId' }, 'write', { kind: 'unknown', retryable: true }],
    [{ kind: 'malformed-response', field: 'orderId' }, 'read', { kind: 'invalid', retryable: false }],
    [{ kind: 'invalid-request', rule: 'limit-needs-price' }, 'write', { kind: 'invalid', code: 'invalid' }],
    [{ kind: 'http', httpStatus: 404 }, 'read', { kind: 'invalid' }],
  ] as const)('%j on a %s', (init, call, expected) => {
    const failure = toExchangeFailure(new VenueError({ endpoint: E, message: 'm', ...init }), call);
    expect(failure).toMatchObject(expected);
    expect(failure.message).toContain('m');
  });

  it('batch leg codes', () => {
    expect(legFailure(E, -1134, 'bad tick')).toMatchObject({ kind: 'rejected', code: '-1134' });
    expect(legFailure(E, -1007, undefined)).toMatchObject({ kind: 'unknown', retryable: true });
    expect(legFailure(E, -1015, 'too many')).toMatchObject({ kind: 'throttled' });
  });
});
