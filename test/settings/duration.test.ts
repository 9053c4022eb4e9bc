import { formatDuration, parseDuration } from '../../src/settings/duration.js';

describe('parseDuration', () => {
  it('reads a number and a unit as whole milliseconds', () => {
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('20s')).toBe(20_000);
    expect(parseDuration('1.5s')).toBe(1500);
    expect(parseDuration('30m')).toBe(1_800_000);
    expect(parseDuration('1h')).toBe(3_600_000);
    expect(parseDuration('2d')).toBe(172_800_000);
    expect(parseDuration(' 5 s ')).toBe(5000);
  });

  it('refuses bare numbers, unknown units, negatives and fractions of a millisecond', () => {
    for (const text of ['10', '10 seconds', '-1s', '1.5ms', 's', '', '1h30m']) expect(parseDuration(text)).toBeUndefined();
  });

  it('formats milliseconds back in the largest whole unit', () => {
    expect([500, 1000, 1500, 60_000, 3_600_000, 86_400_000].map(formatDuration)).toEqual(['500ms', '1s', '1500ms', '1m', '1h', '1d']);
  });
});
