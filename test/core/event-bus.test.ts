import { EventBus } from '../../src/core/event-bus.js';

describe('EventBus: the kernel bus multicasts as an rxjs Subject does', () => {
  it('delivers each event to the subscribers of the moment, in the order they subscribed', () => {
    const bus = new EventBus<number>();
    const seen: string[] = [];
    bus.next(0);
    const a = bus.observable.subscribe((n) => seen.push(`a${n}`));
    bus.observable.subscribe((n) => {
      seen.push(`b${n}`);
      // Subscribed while 1 is being delivered: gets 2 on, not 1.
      if (n === 1) bus.observable.subscribe((m) => seen.push(`c${m}`));
    });
    bus.next(1);
    a.unsubscribe();
    bus.next(2);
    expect(seen).toEqual(['a1', 'b1', 'b2', 'c2']);
  });

  it('completes its subscribers, and later ones at once; nothing is delivered after', () => {
    const bus = new EventBus<number>();
    const seen: string[] = [];
    bus.observable.subscribe({ next: (n) => seen.push(`a${n}`), complete: () => seen.push('a done') });
    bus.next(1);
    bus.complete();
    bus.next(2);
    bus.observable.subscribe({ next: (n) => seen.push(`b${n}`), complete: () => seen.push('b done') });
    expect(seen).toEqual(['a1', 'a done', 'b done']);
  });
});

describe('EventBus.listen: plain listeners in the same order as subscribers', () => {
  it('calls listeners and subscribers in the order they came, until each is removed; none after complete', () => {
    const bus = new EventBus<number>();
    const seen: string[] = [];
    const removeA = bus.listen((n) => seen.push(`a${n}`));
    bus.observable.subscribe((n) => seen.push(`b${n}`));
    bus.listen((n) => seen.push(`c${n}`));
    bus.next(1);
    removeA();
    bus.next(2);
    bus.complete();
    bus.next(3);
    bus.listen((n) => seen.push(`d${n}`));
    bus.next(4);
    expect(seen).toEqual(['a1', 'b1', 'c1', 'b2', 'c2']);
  });

  it('lets what a listener throws reach the caller of next', () => {
    const bus = new EventBus<number>();
    bus.listen(() => {
      throw new Error('listener broke');
    });
    expect(() => bus.next(1)).toThrow('listener broke');
  });
});
