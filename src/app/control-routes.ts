import { z } from 'zod';
import type { RunnerState } from '../engine/strategy-runner.js';
import type { ControlHandler, ControlReply } from './health-server.js';
import type { ReloadReport } from './reload.js';

/** What the control endpoint acts on (the Daemon). */
export interface ControlTarget {
  /** Engages the kill switch: open orders are cancelled, opening intents denied until resume. */
  halt(reason: string): KillSwitchView;
  resume(): KillSwitchView;
  /** Undefined for an unknown strategy id. */
  stopStrategy(id: string): Promise<RunnerState | undefined>;
  startStrategy(id: string): Promise<RunnerState | undefined>;
  reload(): Promise<ReloadReport>;
}

export interface KillSwitchView {
  readonly engaged: boolean;
  readonly reason: string;
  readonly since?: number;
}

export const DEFAULT_HALT_REASON = 'halted by operator';

const haltBody = z.strictObject({ reason: z.string().trim().min(1).max(200).optional() });
const emptyBody = z.strictObject({});
const STRATEGY_PATH = /^\/strategies\/([^/]+)\/(stop|start)$/;

/**
 * POST /control/halt {reason?}, /control/resume, /control/strategies/{id}/stop|start, /control/reload.
 * Replies are JSON: 200 with the new state, 400 for a bad body, 404 for an unknown path or strategy.
 */
export function controlRoutes(target: ControlTarget): ControlHandler {
  return async ({ path, body }): Promise<ControlReply> => {
    if (path === '/halt') {
      const parsed = haltBody.safeParse(body);
      if (!parsed.success) return badBody(parsed.error);
      return { status: 200, body: { killSwitch: target.halt(parsed.data.reason ?? DEFAULT_HALT_REASON) } };
    }
    const empty = emptyBody.safeParse(body);
    if (path === '/resume') return empty.success ? { status: 200, body: { killSwitch: target.resume() } } : badBody(empty.error);
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
