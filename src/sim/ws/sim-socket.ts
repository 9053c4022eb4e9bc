import type { Subscription } from 'rxjs';
import { WebSocket } from 'ws';
import type { TimeSource } from '../../core/clock.js';
import { SlidingWindow } from '../../protocol/sliding-window.js';
import { rawText } from '../../venue/stream/web-socket.js';
import type { SocketMetrics } from './socket-metrics.js';

export interface ConnectionLimits {
  /** Close after this long without any inbound frame (API-NOTES §7 RULE: 60 s). */
  readonly idleTimeoutMs: number;
  /** More inbound messages than this within one second disconnects (API-NOTES §2, §7: 5). */
  readonly maxInboundPerSecond: number;
  /** A reordered event with no successor is sent anyway after this long. */
  readonly reorderHoldMs: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = { idleTimeoutMs: 60_000, maxInboundPerSecond: 5, reorderHoldMs: 1_000 };

/** Why a simulated socket closed, as far as the shared mechanics know (each socket kind may add its own). */
export type SocketCloseReason = 'client' | 'idle' | 'inbound_rate' | 'fault_drop' | 'shutdown';

export interface SimSocketDeps<F, R extends string> {
  readonly time: TimeSource;
  readonly limits: ConnectionLimits;
  readonly metrics: SocketMetrics;
  /** Every inbound text frame that passed the rate rule. */
  readonly onText: (text: string) => void;
  /** Sends a frame through the socket kind's per-delivery faults; false when the socket was dropped. */
  readonly sendFaulted: (frame: F) => boolean;
  /** Draws the reorder fault for a frame about to be delivered. */
  readonly reorder: () => boolean;
  /** After the close bookkeeping (once per socket). */
  readonly onFinished: (reason: R | SocketCloseReason) => void;
}

const CLOSE_POLICY = 1008;

/**
 * The mechanics every simulated WebSocket shares (API-NOTES §7): the inbound message rate rule, the
 * idle timer on the injected scheduler, one frame held back by the reorder fault, and the close
 * bookkeeping with metrics. Each socket kind keeps its own framing and faults and composes one of these.
 */
export class SimSocket<F, R extends string = SocketCloseReason> {
  private readonly inbound = new SlidingWindow(1000);
  private lastInboundAt: number;
  private idleTimer: Subscription | undefined;
  private held: { readonly frame: F; readonly timer: Subscription } | undefined;
  private finished = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly deps: SimSocketDeps<F, R>,
  ) {
    this.lastInboundAt = deps.time.clock.now();
    deps.metrics.opened.inc();
    deps.metrics.open.inc();
    socket.on('message', (data) => {
      if (this.onInbound()) deps.onText(rawText(data));
    });
    socket.on('ping', () => this.onInbound());
    socket.on('pong', () => this.onInbound());
    socket.on('close', () => this.finish('client'));
    // A socket error is followed by 'close'; without a listener ws would throw it.
    socket.on('error', () => undefined);
    this.armIdle(deps.limits.idleTimeoutMs);
  }

  get closed(): boolean {
    return this.finished;
  }

  /** Whether a frame written now reaches the socket. */
  get writable(): boolean {
    return !this.finished && this.socket.readyState === WebSocket.OPEN;
  }

  /** Writes a text frame, or a binary one for a buffer; false when the socket is closed or closing. */
  write(data: string | Buffer): boolean {
    if (!this.writable) return false;
    if (typeof data === 'string') this.socket.send(data);
    else this.socket.send(data, { binary: true });
    return true;
  }

  /** A pushed frame through the reorder fault: held back until the next one (or reorderHoldMs), else sent through the faults. */
  deliver(frame: F): void {
    if (this.finished) return;
    const held = this.held;
    if (held === undefined) {
      if (this.deps.reorder()) this.hold(frame);
      else this.deps.sendFaulted(frame);
      return;
    }
    this.held = undefined;
    held.timer.unsubscribe();
    if (this.deps.sendFaulted(frame)) this.deps.sendFaulted(held.frame);
  }

  /** Discards the held-back frame when `stale` says so (a snapshot superseded it). */
  discardHeld(stale: (frame: F) => boolean): void {
    if (this.held === undefined || !stale(this.held.frame)) return;
    this.held.timer.unsubscribe();
    this.held = undefined;
  }

  /** Closes with a close frame. */
  close(reason: R | SocketCloseReason, code: number, text: string): void {
    if (this.finished) return;
    this.finish(reason);
    this.socket.close(code, text);
  }

  /** Cuts the connection without a close frame. */
  terminate(reason: R | SocketCloseReason): void {
    if (this.finished) return;
    this.finish(reason);
    this.socket.terminate();
  }

  private hold(frame: F): void {
    const timer = this.deps.time.scheduler.schedule(() => {
      if (this.held?.frame !== frame) return;
      this.held = undefined;
      if (!this.finished) this.deps.sendFaulted(frame);
    }, this.deps.limits.reorderHoldMs);
    this.held = { frame, timer };
  }

  /** Records an inbound frame; false when it broke the inbound rate and the socket is closing. */
  private onInbound(): boolean {
    if (this.finished) return false;
    const now = this.deps.time.clock.now();
    this.lastInboundAt = now;
    this.inbound.add(now, 1);
    if (this.inbound.used(now) <= this.deps.limits.maxInboundPerSecond) return true;
    this.close('inbound_rate', CLOSE_POLICY, 'too many messages');
    return false;
  }

  private armIdle(delayMs: number): void {
    this.idleTimer = this.deps.time.scheduler.schedule(() => {
      const idleFor = this.deps.time.clock.now() - this.lastInboundAt;
      if (idleFor >= this.deps.limits.idleTimeoutMs) this.terminate('idle');
      else this.armIdle(this.deps.limits.idleTimeoutMs - idleFor);
    }, Math.max(0, delayMs));
  }

  /** Bookkeeping happens when the server decides to close (or sees the client go), not after the close handshake. */
  private finish(reason: R | SocketCloseReason): void {
    if (this.finished) return;
    this.finished = true;
    this.idleTimer?.unsubscribe();
    this.held?.timer.unsubscribe();
    this.held = undefined;
    this.deps.metrics.closed.inc({ reason });
    this.deps.metrics.open.dec();
    this.deps.onFinished(reason);
  }
}
