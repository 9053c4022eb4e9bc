import { VirtualTimeScheduler } from 'rxjs';
import { DeadlineList } from '../../src/venue/deadline-list.js';

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
