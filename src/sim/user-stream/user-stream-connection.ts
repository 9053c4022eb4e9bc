import type { Subscription } from 'rxjs';
import { WebSocket } from 'ws';
import type { RawData } from 'ws';
import type { TimeSource } from '../../core/clock.js';
import { SlidingWindow } from '../../venue/sliding-window.js';
import type { StreamFrame } from './account-frames.js';
import type { StreamFaults } from './stream-faults.js';
import type { CloseReason, StreamMetrics } from './stream-metrics.js';

export interface ConnectionLimits {
  /** Close after this long without any inbound frame (API-NOTES §7 RULE: 60 s). */
  readonly idleTimeoutMs: number;
  /** More inbound messages than this within one second disconnects (API-NOTES §2, §7: 5). */
  readonly maxInboundPerSecond: number;
  /** A reordered event with no successor is sent anyway after this long. */
  readonly reorderHoldMs: number;
}

export interface ConnectionDeps {
  readonly time: TimeSource;
  readonly faults: StreamFaults;
  readonly metrics: StreamMetrics;
  readonly limits: ConnectionLimits;
  readonly onClosed: (connection: UserStreamConnection) => void;
}

/** Close codes: 1000 when the listen key ends, 1008 on inbound flooding; idle, drop faults and shutdown cut the TCP connection (clients see 1006, as live after idling). */
const CLOSE_NORMAL = 1000;
const CLOSE_POLICY = 1008;

/**
 * One user-stream socket: heartbeat replies, the idle and inbound-rate rules, and delivery of account
 * events through the stream faults (reorder, garbage, duplicate, drop).
 */
export class UserStreamConnection {
  private readonly inbound = new SlidingWindow(1000);
  private lastInboundAt: number;
  private idleTimer: Subscription | undefined;
  private held: { readonly frame: StreamFrame; readonly timer: Subscription } | undefined;
  private finished = false;

  constructor(
    readonly listenKey: string,
    private readonly socket: WebSocket,
    private readonly deps: ConnectionDeps,
  ) {
    this.lastInboundAt = deps.time.clock.now();
    deps.metrics.opened.inc();
    deps.metrics.open.inc();
    socket.on('message', (data) => this.onMessage(data));
    socket.on('ping', () => this.onInbound());
    socket.on('pong', () => this.onInbound());
    socket.on('close', () => this.finish('client'));
    // A socket error is followed by 'close'; without a listener ws would throw it.
    socket.on('error', () => undefined);
    this.armIdle(deps.limits.idleTimeoutMs);
  }

  /** An account event, through the reorder, garbage, duplicate and drop faults. */
  deliver(frame: StreamFrame): void {
    if (this.finished) return;
    const held = this.held;
    if (held === undefined) {
      if (this.deps.faults.reorder()) this.hold(frame);
      else this.sendWithFaults(frame);
      return;
    }
    this.held = undefined;
    held.timer.unsubscribe();
    if (this.sendWithFaults(frame)) this.sendWithFaults(held.frame);
  }

  /** A frame outside the fault model (listenKeyWillExpire). */
  notify(frame: StreamFrame): void {
    this.send(frame);
  }

  /** Closes with a close frame. */
  close(reason: CloseReason): void {
    if (this.finished) return;
    this.finish(reason);
    this.socket.close(reason === 'inbound_rate' ? CLOSE_POLICY : CLOSE_NORMAL, closeText(reason));
  }

  /** Cuts the connection without a close frame. */
  terminate(reason: CloseReason): void {
    if (this.finished) return;
    this.finish(reason);
    this.socket.terminate();
  }

  private sendWithFaults(frame: StreamFrame): boolean {
    const text = this.deps.faults.garbled(frame.text);
    this.send(text === frame.text ? frame : { ...frame, text });
    if (this.deps.faults.duplicate()) this.send(frame);
    if (!this.deps.faults.drop()) return true;
    this.terminate('fault_drop');
    return false;
  }

  private hold(frame: StreamFrame): void {
    const timer = this.deps.time.scheduler.schedule(() => {
      if (this.held?.frame !== frame) return;
      this.held = undefined;
      if (!this.finished) this.sendWithFaults(frame);
    }, this.deps.limits.reorderHoldMs);
    this.held = { frame, timer };
  }

  private send(frame: StreamFrame): void {
    if (this.finished || this.socket.readyState !== WebSocket.OPEN) return;
    this.socket.send(frame.text);
    this.deps.metrics.framesSent.inc({ kind: frame.kind });
  }

  private onMessage(data: RawData): void {
    if (!this.onInbound()) return;
    const text = rawText(data);
    if (isPing(text)) this.send({ kind: 'pong', text: JSON.stringify({ pong: this.deps.time.clock.now() }) });
    // Anything else is ignored: the user stream takes no requests, and an error frame would carry a
    // top-level `code`, which ccxt-pro treats as fatal (API-NOTES §7).
  }

  /** Records an inbound frame; false when it broke the inbound rate and the socket is closing. */
  private onInbound(): boolean {
    if (this.finished) return false;
    const now = this.deps.time.clock.now();
    this.lastInboundAt = now;
    this.inbound.add(now, 1);
    if (this.inbound.used(now) <= this.deps.limits.maxInboundPerSecond) return true;
    this.close('inbound_rate');
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
  private finish(reason: CloseReason): void {
    if (this.finished) return;
    this.finished = true;
    this.idleTimer?.unsubscribe();
    this.held?.timer.unsubscribe();
    this.held = undefined;
    this.deps.metrics.closed.inc({ reason });
    this.deps.metrics.open.dec();
    this.deps.onClosed(this);
  }
}

function closeText(reason: CloseReason): string {
  switch (reason) {
    case 'key_closed':
      return 'listenKey closed';
    case 'key_expired':
      return 'listenKey expired';
    case 'inbound_rate':
      return 'too many messages';
    default:
      return '';
  }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

/** `{"ping":<anything>}`: the client heartbeat (API-NOTES §7). */
function isPing(text: string): boolean {
  if (!text.trimStart().startsWith('{')) return false;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) && 'ping' in value;
  } catch {
    return false;
  }
}
