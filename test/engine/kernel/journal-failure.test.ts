import { FailingJournal } from '../../support/failing-journal.js';
import { KernelRig, limitBuy, scripted, World } from './kernel-support.js';

/**
 * A journal that cannot be written (disk full, I/O error) stops opening orders loudly and for as long
 * as it lasts only: the strategy hears command.failed / intent.denied JOURNAL_UNAVAILABLE, nothing
 * unjournaled reaches the exchange, the metric shows it, and trading resumes by itself once a probe
 * write succeeds again.
 */
describe('Kernel: journal write failures', () => {
  test('a failed journal write holds opening orders back until a probe write succeeds, then trading resumes', async () => {
    const world = new World();
    const journal = new FailingJournal(world.store.journal());
    const alpha = scripted('alpha');
    const rig = new KernelRig(world, { strategies: [alpha], journal });
    await rig.start();
    alpha.emit(limitBuy('99000', '1', 'a'));
    await rig.settle();
    expect(world.openIds()).toEqual(['alpha-a']);
    expect(await rig.metric('stratd_journal_writable', {})).toBe(1);

    // The disk fills up: the next submission cannot be journaled, so it is not sent.
    journal.failWith = 'SQLITE_FULL';
    alpha.emit(limitBuy('98900', '1', 'b'));
    await rig.settle();
    const failed = alpha.of('command.failed');
    expect(failed.map((e) => [e.failure.code, e.failure.retryable])).toEqual([['JOURNAL_UNAVAILABLE', true]]);
    expect(failed[0]?.failure.message).toContain('SQLITE_FULL');
    expect(world.openIds()).toEqual(['alpha-a']);
    expect(rig.kernel.executor.journalHealth.state).toMatchObject({ writable: false, since: world.clock.now() });
    expect(rig.kernel.executor.journalHealth.state.lastError?.message).toContain('database or disk is full');
    expect(await rig.metric('stratd_journal_writable', {})).toBe(0);

    // While it lasts, opening intents are denied before anything is written; a cancel (it reduces
    // exposure) is sent all the same, tracked in memory only.
    alpha.emit(limitBuy('98800', '1', 'c'));
    alpha.emit({ type: 'cancel', clientOrderId: 'alpha-a' });
    await rig.settle();
    expect(alpha.of('intent.denied').map((e) => e.denial.code)).toEqual(['JOURNAL_UNAVAILABLE']);
    expect(alpha.of('command.failed').map((e) => [e.command.type, e.failure.code])).toEqual([['place-order', 'JOURNAL_UNAVAILABLE']]);
    expect(alpha.of('command.submitted').map((e) => e.command.type)).toEqual(['place-order', 'cancel-order']);
    expect(world.openIds()).toEqual([]);
    expect(rig.kernel.executor.journalHealth.state.writable).toBe(false);
    // The probe retries with backoff: 1 s, then 2 s later, still failing.
    const refusedBefore = journal.refused;
    world.clock.advanceBy(1000);
    await rig.settle();
    expect(journal.refused).toBe(refusedBefore + 1);
    world.clock.advanceBy(1999);
    await rig.settle();
    expect(journal.refused).toBe(refusedBefore + 1);
    world.clock.advanceBy(1);
    await rig.settle();
    expect(journal.refused).toBe(refusedBefore + 2);
    expect(await rig.metric('stratd_journal_write_failures_total', {})).toBe(refusedBefore + 2);

    // Space is freed: the next probe (4 s later) writes, and the strategy's next opening order goes.
    journal.failWith = undefined;
    world.clock.advanceBy(4000);
    await rig.settle();
    expect(rig.kernel.executor.journalHealth.state.writable).toBe(true);
    expect(await rig.metric('stratd_journal_writable', {})).toBe(1);
    alpha.emit(limitBuy('98800', '1', 'c'));
    await rig.settle();
    expect(world.openIds()).toEqual(['alpha-c']);
    expect(world.store.journal().get('alpha-c')?.state).toBe('accepted');
    // The key whose submission was never journaled is free: the exchange never had it.
    expect(world.store.journal().get('alpha-b')).toBeUndefined();
    alpha.emit(limitBuy('98900', '1', 'b'));
    await rig.settle();
    expect(world.openIds()).toEqual(['alpha-b', 'alpha-c']);
    await rig.kernel.stop({ cancelOpenOrders: false });
  });

  test('a write failing after the send (the reply\'s state) is reported, not thrown: memory follows the exchange', async () => {
    const world = new World();
    const journal = new FailingJournal(world.store.journal());
    const alpha = scripted('alpha');
    const rig = new KernelRig(world, { strategies: [alpha], journal });
    await rig.start();
    alpha.emit(limitBuy('99000', '1', 'a'));
    await rig.settle();
    // The order fills while the disk is full: the fill and the order's end reach the strategy all the same.
    journal.failWith = 'SQLITE_IOERR';
    world.clock.advanceBy(1000);
    world.trade('98990', '5', 'SELL');
    await rig.settle();
    expect(rig.kernel.cache.order('alpha-a')?.status).toBe('FILLED');
    expect(alpha.of('account.fill')).toHaveLength(1);
    expect(rig.kernel.executor.journalHealth.state.writable).toBe(false);
    expect(rig.kernel.executor.openOrdersOf('alpha')).toEqual([]);
    // The journal still says accepted; once it is writable again later changes are written again.
    expect(world.store.journal().get('alpha-a')?.state).toBe('accepted');
    journal.failWith = undefined;
    world.clock.advanceBy(1000);
    await rig.settle();
    expect(rig.kernel.executor.journalHealth.state.writable).toBe(true);
    await rig.kernel.stop({ cancelOpenOrders: false });
  });

  test('a journal that cannot be read during reconciliation fails the run with the reason instead of throwing out of it', async () => {
    const world = new World();
    const journal = new FailingJournal(world.store.journal());
    const alpha = scripted('alpha');
    const rig = new KernelRig(world, { strategies: [alpha], journal });
    await rig.start();
    journal.failReadsWith = 'SQLITE_CORRUPT';
    const run = await rig.kernel.reconcile(1);
    expect(run.ok).toBe(false);
    if (!run.ok) expect([run.error.code, run.error.message]).toEqual(['JOURNAL_UNAVAILABLE', expect.stringContaining('SQLITE_CORRUPT') as unknown]);
    expect(rig.kernel.lastReconcile).toMatchObject({ ok: false });
    expect(rig.kernel.executor.journalHealth.state.writable).toBe(false);
    journal.failReadsWith = undefined;
    world.clock.advanceBy(1000);
    await rig.settle();
    expect(rig.kernel.executor.journalHealth.state.writable).toBe(true);
    await rig.kernel.stop({ cancelOpenOrders: false });
  });
});
