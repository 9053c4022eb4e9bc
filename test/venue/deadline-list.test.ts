import { VirtualTimeScheduler } from 'rxjs';
import { DeadlineList } from '../../src/venue/deadline-list.js';
import { ended, holds, timersMadeBy } from '../support/held-handles.js';
import { waitFor } from '../support/wait-for.js';

describe('a list of deadlines on one scheduled action (virtual time)', () => {
  test('each fires at its time, in order, never early; a cancelled one never fires', () => {
    const scheduler = new VirtualTimeScheduler();
    const list = new DeadlineList(scheduler);
    const fired: Array<[string, number]> = [];
    const at = (name: string) => () => fired.push([name, scheduler.now()]);
    list.add(300, at('c'));
    list.add(100, at('a'));
    const dropped = list.add(200, at('dropped'));
    list.add(200, at('b'));
    dropped.cancel();
    scheduler.flush();
    expect(fired).toEqual([
      ['a', 100],
      ['b', 200],
      ['c', 300],
    ]);
  });

  test('a deadline added while others wait, and one added from a firing, fire on time', () => {
    const scheduler = new VirtualTimeScheduler();
    const list = new DeadlineList(scheduler);
    const fired: Array<[string, number]> = [];
    list.add(500, () => fired.push(['late', scheduler.now()]));
    list.add(50, () => {
      fired.push(['first', scheduler.now()]);
      list.add(10, () => fired.push(['chained', scheduler.now()]));
    });
    scheduler.flush();
    expect(fired).toEqual([
      ['first', 50],
      ['chained', 60],
      ['late', 500],
    ]);
  });

  test('with every deadline cancelled nothing stays scheduled', () => {
    const scheduler = new VirtualTimeScheduler();
    const list = new DeadlineList(scheduler);
    const deadlines = [list.add(1000, () => undefined), list.add(2000, () => undefined)];
    expect(scheduler.actions.length).toBe(1);
    for (const d of deadlines) d.cancel();
    expect(scheduler.actions.filter((a) => !a.closed).length).toBe(0);
  });
});

describe('a list of deadlines on the real timers (no scheduler)', () => {
  test('one timer, holding the process up only while a deadline is live, kept over an idle gap for the next one', () => {
    const list = new DeadlineList();
    let first: { cancel(): void } | undefined;
    const made = timersMadeBy(() => (first = list.add(600_000, () => undefined)));
    expect(made).toHaveLength(1);
    const timer = made[0];
    expect(holds(timer)).toBe(true);
    first?.cancel();
    // Kept for the next request, released: an idle client lets the process exit.
    expect(holds(timer)).toBe(false);
    expect(ended.has(timer?.id ?? -1)).toBe(false);
    // Later deadlines (the next requests) take the same timer again: no new one.
    const again = timersMadeBy(() => {
      const second = list.add(600_001, () => undefined);
      expect(holds(timer)).toBe(true);
      second.cancel();
      expect(holds(timer)).toBe(false);
    });
    expect(again).toHaveLength(0);
    list.clear();
    expect(holds(timer)).toBe(false);
  });

  test('deadlines still fire, in order, after the list was idle and its kept timer met nothing live', async () => {
    const list = new DeadlineList();
    const fired: string[] = [];
    // A cancelled short deadline leaves the kept timer armed for its time: it finds nothing live and goes.
    const idleTimers = timersMadeBy(() => list.add(1, () => fired.push('cancelled')).cancel());
    await waitFor(() => idleTimers.every((timer) => ended.has(timer.id)), 'the kept timer to fire and go');
    const made = timersMadeBy(() => {
      list.add(30, () => fired.push('b'));
      list.add(10, () => fired.push('a'));
    });
    await waitFor(() => fired.length === 2, 'two deadlines');
    expect(fired).toEqual(['a', 'b']);
    expect(made.some((timer) => holds(timer))).toBe(false);
    list.add(20, () => fired.push('after idle'));
    await waitFor(() => fired.length === 3, 'the deadline after the idle gap');
    expect(fired).toEqual(['a', 'b', 'after idle']);
  });

  test('cancelling a deadline after clear() leaves the list working', async () => {
    const list = new DeadlineList();
    const stale = list.add(600_000, () => undefined);
    list.clear();
    stale.cancel();
    const fired: string[] = [];
    const made = timersMadeBy(() => list.add(5, () => fired.push('fired')));
    expect(made.map((timer) => holds(timer))).toEqual([true]);
    await waitFor(() => fired.length === 1, 'the deadline');
    // Node reports a fired timer's end (its async destroy hook) a moment after its callback: on a loaded
    // machine the poll above can see the deadline fired before that. A timer kept holding fails here.
    await waitFor(() => !holds(made[0]), 'the fired timer to let the process go');
  });
});
