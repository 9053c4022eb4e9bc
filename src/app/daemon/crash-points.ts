import { isCancel } from '../../engine/execution/order-tracker.js';
import type { OrderJournal } from '../../model/journal.js';
import type { HttpPort } from '../../venue/http-port.js';
import { ConfigError } from '../../settings/config-error.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';

/**
 * Crash points, for crash testing the exactly-once path (issue 8's crash suite): the process kills
 * itself with SIGKILL — no clean-up, exactly as `kill -9` — at a named moment of an order's life:
 *
 * - `journaled`: right after a command was written to the journal, before it is sent (a cancel: after);
 * - `written`: right after a write request (POST/PUT/DELETE) was handed to the socket, before its reply;
 * - `unsynced`: the same moment, when the journal commits that cleared it are not yet fsynced (with
 *   `journal.durability: disk`, the fsync runs beside the send: store/group-commit.ts);
 * - `cancelSent`: right before a cancel's journal row is written, which is after the cancel was sent
 *   (a cancel goes out first: engine/execution/executor.ts), so it dies sent and unjournaled.
 *
 * Armed only by `STRATD_CRASH_POINTS`, e.g. `journaled=0.2,written=0.1`: at each pass, the point fires
 * with that probability. Unset (always, outside crash tests): nothing is wrapped.
 */
export type CrashPointName = 'journaled' | 'written' | 'unsynced' | 'cancelSent';

const NAMES: readonly CrashPointName[] = ['journaled', 'written', 'unsynced', 'cancelSent'];
export const CRASH_POINTS_VARIABLE = 'STRATD_CRASH_POINTS';

export interface CrashPoints {
  pass(point: CrashPointName): void;
}

/** The armed points of the environment; undefined when the variable is unset or empty. */
export function crashPointsFromEnv(env: Readonly<Record<string, string | undefined>>, kill: () => void = killNow): Result<CrashPoints | undefined, ConfigError> {
  const text = env[CRASH_POINTS_VARIABLE]?.trim() ?? '';
  if (text === '') return ok(undefined);
  const odds = new Map<CrashPointName, number>();
  for (const part of text.split(',')) {
    const [name = '', value = ''] = part.split('=').map((s) => s.trim());
    const probability = Number(value);
    const point = NAMES.find((n) => n === name);
    if (point === undefined || value === '' || !(probability >= 0 && probability <= 1)) {
      return err(new ConfigError(`${CRASH_POINTS_VARIABLE}: "${part}" is not <point>=<probability 0..1> with a point among ${NAMES.join(', ')}`));
    }
    odds.set(point, probability);
  }
  return ok({
    pass(point) {
      const probability = odds.get(point) ?? 0;
      if (probability > 0 && Math.random() < probability) kill();
    },
  });
}

function killNow(): void {
  process.kill(process.pid, 'SIGKILL');
}

/**
 * The journal with the `journaled` point after every append that is committed: at once, or, inside
 * `atomically`, once the outermost batch committed; and the `cancelSent` point before a cancel's append.
 */
export function journalWithCrashPoint(journal: OrderJournal, points: CrashPoints): OrderJournal {
  let depth = 0;
  let appended = false;
  const append: OrderJournal['append'] = (entry) => {
    if (isCancel(entry.command)) points.pass('cancelSent');
    journal.append(entry);
    if (depth > 0) appended = true;
    else points.pass('journaled');
  };
  const atomically: OrderJournal['atomically'] = (work) => {
    depth += 1;
    let committed = false;
    try {
      const answer = journal.atomically(work);
      committed = true;
      return answer;
    } finally {
      depth -= 1;
      if (depth === 0) {
        const fire = appended && committed;
        appended = false;
        if (fire) points.pass('journaled');
      }
    }
  };
  return new Proxy(journal, {
    get: (target, property, receiver): unknown => {
      if (property === 'append') return append;
      if (property === 'atomically') return atomically;
      return Reflect.get(target, property, receiver);
    },
  });
}

/**
 * The HTTP port with the `written` point once each write request is on the socket, and the
 * `unsynced` point there too while `unsynced()` says journal commits await their fsync.
 */
export function httpWithCrashPoint(http: HttpPort, points: CrashPoints, unsynced: () => boolean = () => false): HttpPort {
  return {
    send: (request) => {
      if (request.method === 'GET') return http.send(request);
      return http.send({
        ...request,
        onWritten: () => {
          request.onWritten?.();
          points.pass('written');
          if (unsynced()) points.pass('unsynced');
        },
      });
    },
  };
}
