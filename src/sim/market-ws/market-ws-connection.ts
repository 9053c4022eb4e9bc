import { gzipSync } from 'node:zlib';
import type { Subscription } from 'rxjs';
import { WebSocket } from 'ws';
import type { RawData } from 'ws';
import type { TimeSource } from '../../core/clock.js';
import { SlidingWindow } from '../../venue/sliding-window.js';
import type { ConnectionLimits } from '../user-stream/user-stream-connection.js';
import type { MarketWsFaults } from './market-ws-faults.js';
import type { MarketWsCloseReason, MarketWsMetrics } from './market-ws-metrics.js';

export interface MarketWsConnectionDeps {
  readonly time: TimeSource;
  readonly faults: MarketWsFaults;
  readonly metrics: MarketWsMetrics;
  readonly limits: ConnectionLimits;
  /** Every inbound text frame that passed the rate rule (requests and pings). */
  readonly onRequest: (connection: MarketWsConnection, text: string) => void;
  readonly onClosed: (connection: MarketWsConnection) => void;
}

/** A frame on its way to one socket: its text, whether it goes gzip-compressed, and its topic (metrics). */
export interface OutboundFrame {
  readonly text: string;
  readonly binary: boolean;
  readonly topic: string;
  /** The subscription it belongs to (`topic|symbol`): a re-subscribe discards a held frame of it. */
  readonly key: string;
}

const CLOSE_POLICY = 1008;

/**
 * One public market socket (API-NOTES §8): its subscriptions, the inbound rate and idle rules of §7,
 * and delivery through the market socket faults (lost, reordered frames; dropped sockets). Snapshots
 * and replies skip the loss and reorder faults.
 */
export class MarketWsConnection {
  /** Subscription key (`topic|symbol`) → binary frames wanted. */
  readonly subscriptions = new Map<string, boolean>();
  private readonly inbound = new SlidingWindow(1000);
  private lastInboundAt: number;
  private idleTimer: Subscription | undefined;
  private held: { readonly frame: OutboundFrame; readonly timer: Subscription } | undefined;
  private finished = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly deps: MarketWsConnectionDeps,
  ) {
    this.lastInboundAt = deps.time.clock.now();
    deps.metrics.opened.inc();
    deps.metrics.open.inc();
    socket.on('message', (data) => this.onMessage(data));
    socket.on('ping', () => this.onInbound());
    socket.on('pong', () => this.onInbound());
    socket.on('close', () => this.finish('client'));
    socket.on('error', () => undefined);
    this.armIdle(deps.limits.idleTimeoutMs);
  }

  get closed(): boolean {
    return this.finished;
  }

  /** A pushed update, through the loss, reorder and drop faults. */
  deliver(frame: OutboundFrame): void {
    if (this.finished) return;
    if (this.deps.faults.lose()) return;
    const held = this.held;
    if (held === undefined) {
      if (this.deps.faults.reorder()) this.hold(frame);
      else this.sendWithDrop(frame);
      return;
    }
    this.held = undefined;
    held.timer.unsubscribe();
    if (this.sendWithDrop(frame)) this.sendWithDrop(held.frame);
  }

  /** A snapshot or a reply: no loss or reorder; a frame of the same subscription still held back is discarded (it predates the snapshot). */
  send(frame: OutboundFrame): void {
    if (this.held?.frame.key === frame.key) {
      this.held.timer.unsubscribe();
      this.held = undefined;
    }
    this.write(frame);
  }

  terminate(reason: MarketWsCloseReason): void {
    if (this.finished) return;
    this.finish(reason);
    this.socket.terminate();
  }

  private sendWithDrop(frame: OutboundFrame): boolean {
    this.write(frame);
    if (!this.deps.faults.drop()) return true;
    this.terminate('fault_drop');
    return false;
  }

  private hold(frame: OutboundFrame): void {
    const timer = this.deps.time.scheduler.schedule(() => {
      if (this.held?.frame !== frame) return;
      this.held = undefined;
      if (!this.finished) this.sendWithDrop(frame);
    }, this.deps.limits.reorderHoldMs);
    this.held = { frame, timer };
  }

  private write(frame: OutboundFrame): void {
    if (this.finished || this.socket.readyState !== WebSocket.OPEN) return;
    if (frame.binary) this.socket.send(gzipSync(frame.text), { binary: true });
    else this.socket.send(frame.text);
    this.deps.metrics.framesSent.inc({ topic: frame.topic });
  }

  private onMessage(data: RawData): void {
    if (!this.onInbound()) return;
    this.deps.onRequest(this, rawText(data));
  }

  private onInbound(): boolean {
    if (this.finished) return false;
    const now = this.deps.time.clock.now();
    this.lastInboundAt = now;
    this.inbound.add(now, 1);
    if (this.inbound.used(now) <= this.deps.limits.maxInboundPerSecond) return true;
    this.finish('inbound_rate');
    this.socket.close(CLOSE_POLICY, 'too many messages');
    return false;
  }

  private armIdle(delayMs: number): void {
    this.idleTimer = this.deps.time.scheduler.schedule(() => {
      const idleFor = this.deps.time.clock.now() - this.lastInboundAt;
      if (idleFor >= this.deps.limits.idleTimeoutMs) this.terminate('idle');
      else this.armIdle(this.deps.limits.idleTimeoutMs - idleFor);
    }, Math.max(0, delayMs));
  }

  private finish(reason: MarketWsCloseReason): void {
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

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}
