import { z } from 'zod';
import type { RunnerState } from '../../engine/strategy/runner.js';
import type { Result } from '../../core/result.js';
import type { Caller, ControlHandler, ControlReply } from './server.js';
import type { ReloadReport } from '../daemon/reload.js';
import type { ClaimTarget } from './claim.js';
import { CLAIM_PATH, claimRoute } from './claim.js';

/** What the control endpoint acts on (the Daemon). */
export interface ControlTarget extends ClaimTarget {
  /** Engages the kill switch: open orders are cancelled, opening intents denied until resume. */
  halt(reason: string, by: Caller): KillSwitchView;
  /** Refused (a value) when the daily loss limit holds the switch and the request does not override it. */
  resume(request: ResumeRequest, by: Caller): Result<KillSwitchView, { readonly code: string; readonly message: string }>;
  /** Undefined for an unknown strategy id. */
  stopStrategy(id: string): Promise<RunnerState | undefined>;
  startStrategy(id: string): Promise<RunnerState | undefined>;
  reload(): Promise<ReloadReport>;
}

export interface KillSwitchView {
  readonly engaged: boolean;
  readonly reason: string;
  readonly since?: number;
  /** Present (true) while the daily loss limit holds it: a plain resume does not lift it. */
  readonly dailyLoss?: true;
  /** Today's override of the daily loss limit. */
  readonly override?: { readonly reason: string; readonly at: number; readonly dayPnl: string };
}

/** POST /control/resume: `overrideDailyLoss` is the operator's reason for lifting a daily-loss halt. */
export interface ResumeRequest {
  readonly overrideDailyLoss?: string;
}

export const DEFAULT_HALT_REASON = 'halted by operator';

const haltBody = z.strictObject({ reason: z.string().trim().min(1).max(200).optional() });
const emptyBody = z.strictObject({});
const resumeBody = z.strictObject({ overrideDailyLoss: z.string().trim().min(3, 'the reason for the override, at least 3 characters').max(200).optional() });
const STRATEGY_PATH = /^\/strategies\/([^/]+)\/(stop|start)$/;

/**
 * POST /control/halt {reason?}, /control/resume {overrideDailyLoss?}, /control/strategies/{id}/stop|start,
 * /control/strategies/{id}/claim {symbol, side, qty?} (control/claim.ts), /control/reload. Replies are JSON: 200 with the new state, 400 for a bad body, 404 for an unknown path
 * or strategy, 409 for a resume the daily loss limit refuses.
 */
export function controlRoutes(target: ControlTarget): ControlHandler {
  return async ({ path, body, caller }): Promise<ControlReply> => {
    if (path === '/halt') {
      const parsed = haltBody.safeParse(body);
      if (!parsed.success) return badBody(parsed.error);
      return { status: 200, body: { killSwitch: target.halt(parsed.data.reason ?? DEFAULT_HALT_REASON, caller) } };
    }
    if (path === '/resume') {
      const parsed = resumeBody.safeParse(body);
      if (!parsed.success) return badBody(parsed.error);
      const resumed = target.resume(parsed.data.overrideDailyLoss === undefined ? {} : { overrideDailyLoss: parsed.data.overrideDailyLoss }, caller);
      return resumed.ok ? { status: 200, body: { killSwitch: resumed.value } } : { status: 409, body: { error: resumed.error.message, code: resumed.error.code } };
    }
    const claim = CLAIM_PATH.exec(path);
    if (claim !== null) {
      const id = decodePart(claim[1] ?? '');
      return id === undefined ? { status: 400, body: { error: 'bad strategy id in the path' } } : claimRoute(target, id, body, caller);
    }
    const empty = emptyBody.safeParse(body);
    if (path === '/reload') return empty.success ? { status: 200, body: { reload: await target.reload() } } : badBody(empty.error);
    const strategy = STRATEGY_PATH.exec(path);
    if (strategy !== null) {
      if (!empty.success) return badBody(empty.error);
      const id = decodePart(strategy[1] ?? '');
      if (id === undefined) return { status: 400, body: { error: 'bad strategy id in the path' } };
      const state = strategy[2] === 'stop' ? await target.stopStrategy(id) : await target.startStrategy(id);
      if (state === undefined) return { status: 404, body: { error: `no strategy ${id}` } };
      return { status: 200, body: { strategy: { id, state } } };
    }
    return { status: 404, body: { error: 'not found' } };
  };
}

function badBody(error: z.ZodError): ControlReply {
  const issue = error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? '' : `${issue.path.join('.')}: `;
  return { status: 400, body: { error: `${where}${issue?.message ?? 'invalid body'}` } };
}

function decodePart(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
