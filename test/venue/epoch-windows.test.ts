import { EpochWindows } from '../../src/protocol/sliding-window.js';

describe('EpochWindows: windows before an add\'s `from` are forgotten', () => {
  test('as the time moves on, and again after the server clock stepped back', () => {
    const windows = new EpochWindows(1_000);
    windows.add(10_500, 10_400, 10_700, 2);
    windows.add(11_200, 11_100, 12_100, 1);
    expect([windows.used(10), windows.used(11), windows.used(12), windows.spilled(12)]).toEqual([0, 1, 1, 1]);
    // A re-sync moved the server clock back: windows before the current one are counted again...
    windows.add(8_500, 8_400, 9_100, 3);
    expect([windows.used(8), windows.used(9), windows.used(11)]).toEqual([3, 3, 1]);
    // ...and forgotten once a later add starts past them.
    windows.add(9_500, 9_400, 9_600, 0);
    expect([windows.used(8), windows.used(9), windows.used(11)]).toEqual([0, 3, 1]);
    windows.add(11_500, 11_400, 11_600, 0);
    expect([windows.used(9), windows.used(11), windows.used(12)]).toEqual([0, 1, 1]);
  });
});
