import type { Subscription } from 'rxjs';
import { silentLogger } from '../../../src/core/logger.js';
import { Kernel } from '../../../src/engine/kernel.js';
import type { ExchangePort } from '../../../src/model/exchange-port.js';
import type { OrderJournal } from '../../../src/model/journal.js';
import type { GlobalRiskLimits } from '../../../src/model/risk-limits.js';
import { StorageError } from '../../support/failing-journal.js';
import { BTC, drain, ETH, limitBuy, scripted, World } from './kernel-support.js';
import type { TestStrategy } from './kernel-support.js';

/** What happened, in order: each outermost journal commit that wrote, and each order request sent. */
type Step = string;

/**
 * The World's journal, logging each outermost commit that wrote (`commit a,b`: the entries it added);
 * `failCommits`: the next outermost commits fail as a full disk does at COMMIT (their writes roll back).
 */
function loggingJournal(inner: OrderJournal, steps: Step[]): { readonly journal: OrderJournal; failCommits: number } {
  let depth = 0;
  let added: string[] = [];
  const control = { journal: inner, failCommits: 0 };
  const journal = new Proxy(inner, {
    get: (target, property, receiver): unknown => {
      if (property === 'append') {
        return (entry: Parameters<OrderJournal['append']>[0]): void => {
          target.append(entry);
          if (depth > 0) added.push(entry.id);
          else steps.push(`commit ${entry.id}`);
        };
      }
      if (property === 'atomically') {
        return <T>(work: () => T): T => {
          depth += 1;
          let committed = false;
          try {
            const answer = target.atomically(() => {
              const result = work();
              if (depth === 1 && control.failCommits > 0) {
                control.failCommits -= 1;
                throw new StorageError('SQLITE_FULL', 'database or disk is full');
              }
              return result;
            });
            committed = true;
            return answer;
          } finally {
            depth -= 1;
            if (depth === 0) {
              if (committed && added.length > 0) steps.push(`commit ${added.join(',')}`);
              added = [];
            }
          }
        };
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
  control.journal = journal;
  return control;
}

/** The World's port, logging each write request as it is sent (`place alpha-a`, `cancel alpha-a`). */
function loggingPort(inner: ExchangePort, steps: Step[]): ExchangePort {
  return new Proxy(inner, {
    get: (target, property, receiver): unknown => {
      if (property === 'placeOrder') {
        return (command: Parameters<ExchangePort['placeOrder']>[0]) => {
          steps.push(`place ${command.clientOrderId}`);
          return target.placeOrder(command);
        };
      }
      if (property === 'cancelOrder') {
        return (command: Parameters<ExchangePort['cancelOrder']>[0]) => {
          steps.push(`cancel ${command.clientOrderId}`);
          return target.cancelOrder(command);
        };
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}

class Rig {
  readonly steps: Step[] = [];
  readonly kernel: Kernel;
  readonly journal: ReturnType<typeof loggingJournal>;
  private readonly subscriptions: Subscription[] = [];

  constructor(
    readonly world: World,
    strategies: readonly TestStrategy[],
    batchSubmissions: boolean,
    globalLimits: GlobalRiskLimits = {},
  ) {
    this.journal = loggingJournal(world.store.journal(), this.steps);
    this.kernel = new Kernel({
      port: loggingPort(world.port, this.steps),
      journal: this.journal.journal,
      keyValue: (id) => world.store.keyValue(id),
      time: world.clock,
      logger: silentLogger,
      globalLimits,
      strategies: strategies.map((s) => s.instance),
      symbols: [BTC, ETH],
      orphans: 'adopt',
      tickMs: 0,
      batchSubmissions,
    });
    this.subscriptions.push(world.port.accountEvents$.subscribe((event) => this.kernel.ingest(event)));
    this.subscriptions.push(world.market$().subscribe((event) => this.kernel.ingest(event)));
  }

  async start(): Promise<void> {
    const started = await this.kernel.start();
    if (!started.ok) throw new Error(started.error.message);
    await this.settle();
    this.steps.splice(0);
  }

  async settle(): Promise<void> {
    await drain();
    await this.kernel.strategies.idle();
    await this.kernel.executor.flush();
    await drain();
  }

  async stop(): Promise<void> {
    await this.kernel.stop({ cancelOpenOrders: false });
    for (const s of this.subscriptions.splice(0)) s.unsubscribe();
  }
}

/** On every book after the first: cancel the order it placed last, place the next (the tick bench's strategy). */
function requoting(): TestStrategy {
  let n = 0;
  return scripted('alpha', {
    onEvent: (ctx, event) => {
      if (event.type !== 'market.book') return;
      n += 1;
      if (n > 1) ctx.emit({ type: 'cancel', clientOrderId: ctx.clientOrderIdFor(`q${n - 1}`) });
      ctx.emit(limitBuy(String(90_000 + n), '1', `q${n}`));
    },
  });
}

describe('Kernel: the submissions of one event are journaled in one commit, then sent back to back', () => {
  test('a cancel and a place answering one book: one commit holding both before either is sent, the strategy\'s order kept', async () => {
    const world = new World();
    const rig = new Rig(world, [requoting()], true);
    await rig.start();
    world.book([['99999.9', '5']], [['100000', '2']]);
    await rig.settle();
    world.book([['99999.8', '5']], [['100000', '2']]);
    await rig.settle();
    expect(rig.steps).toEqual(['commit alpha-q1', 'place alpha-q1', expect.stringMatching(/^commit alpha\/cancel-order\/\d+,alpha-q2$/), 'cancel alpha-q1', 'place alpha-q2']);
    expect(world.openIds()).toEqual(['alpha-q2']);
    expect(world.store.journal().get('alpha-q2')?.state).toBe('accepted');
    expect(world.store.journal().get('alpha-q1')?.state).toBe('done');
    await rig.stop();
  });

  test('without batching (backtests) each submission is committed and sent before the next intent is looked at', async () => {
    const world = new World();
    const rig = new Rig(world, [requoting()], false);
    await rig.start();
    world.book([['99999.9', '5']], [['100000', '2']]);
    await rig.settle();
    world.book([['99999.8', '5']], [['100000', '2']]);
    await rig.settle();
    expect(rig.steps).toEqual(['commit alpha-q1', 'place alpha-q1', expect.stringMatching(/^commit alpha\/cancel-order\/\d+$/), 'cancel alpha-q1', 'commit alpha-q2', 'place alpha-q2']);
    expect(world.openIds()).toEqual(['alpha-q2']);
    await rig.stop();
  });

  test('the risk engine sees an order admitted earlier in the batch, before it is sent', async () => {
    const world = new World();
    const alpha = scripted('alpha', {
      onEvent: (ctx, event) => {
        if (event.type !== 'market.book') return;
        ctx.emit(limitBuy('90000', '1', 'a'));
        ctx.emit(limitBuy('90001', '1', 'b'));
      },
    });
    const rig = new Rig(world, [alpha], true, { maxOpenOrders: 1 });
    await rig.start();
    world.book([['99999.9', '5']], [['100000', '2']]);
    await rig.settle();
    expect(alpha.of('intent.denied').map((e) => e.denial.code)).toEqual(['MAX_OPEN_ORDERS']);
    expect(rig.steps).toEqual(['commit alpha-a', 'place alpha-a']);
    expect(world.openIds()).toEqual(['alpha-a']);
    await rig.stop();
  });

  test('a batch whose commit fails sends nothing: each of its commands fails as unjournaled, none stays tracked, the next tick trades', async () => {
    const world = new World();
    const alpha = requoting();
    const rig = new Rig(world, [alpha], true);
    await rig.start();
    world.book([['99999.9', '5']], [['100000', '2']]);
    await rig.settle();
    rig.steps.splice(0);
    rig.journal.failCommits = 1;
    world.book([['99999.8', '5']], [['100000', '2']]);
    await rig.settle();
    expect(rig.steps).toEqual([]);
    expect(alpha.of('command.failed').map((e) => [e.command.type, e.failure.code, e.failure.retryable])).toEqual([
      ['cancel-order', 'JOURNAL_UNAVAILABLE', true],
      ['place-order', 'JOURNAL_UNAVAILABLE', true],
    ]);
    expect(world.store.journal().get('alpha-q2')).toBeUndefined();
    expect(rig.kernel.executor.openOrdersOf('alpha')).toEqual(['alpha-q1']);
    expect(world.openIds()).toEqual(['alpha-q1']);
    // The journal is writable again (its probe succeeds): the next book's place goes out (its cancel names
    // q2, which was never sent: the risk engine refuses it).
    world.clock.advanceBy(1000);
    await rig.settle();
    expect(rig.kernel.executor.journalHealth.state.writable).toBe(true);
    world.book([['99999.7', '5']], [['100000', '2']]);
    await rig.settle();
    expect(rig.steps).toEqual(['commit alpha-q3', 'place alpha-q3']);
    expect(alpha.of('intent.denied').map((e) => e.intent.type)).toEqual(['cancel']);
    expect(world.openIds()).toEqual(['alpha-q1', 'alpha-q3']);
    await rig.stop();
  });
});
