import { WarningThrottle } from '../../src/app/daemon/warning-throttle.js';
import { VirtualClock } from '../../src/core/virtual-time.js';

describe('warning throttle', () => {
  it('admits one warning per subject per interval and counts the ones it held back', () => {
    const clock = new VirtualClock(1_000_000);
    const throttle = new WarningThrottle(clock, 60_000);
    const seen: Array<[string, number | undefined]> = [];
    const tell = (subject: string): void => {
      seen.push([subject, throttle.admit(subject)?.suppressed]);
    };
    tell('depth');
    tell('trades');
    for (let i = 0; i < 5; i += 1) {
      clock.advanceBy(1_000);
      tell('depth');
    }
    clock.advanceBy(55_000);
    tell('depth');
    tell('trades');
    expect(seen).toEqual([
      ['depth', 0],
      ['trades', 0],
      ['depth', undefined],
      ['depth', undefined],
      ['depth', undefined],
      ['depth', undefined],
      ['depth', undefined],
      ['depth', 5],
      ['trades', 0],
    ]);
  });
});
