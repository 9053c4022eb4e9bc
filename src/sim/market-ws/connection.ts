import { gzipSync } from 'node:zlib';
import type { WebSocket } from 'ws';
import type { TimeSource } from '../../core/clock.js';
import { SimSocket } from '../ws/sim-socket.js';
import type { ConnectionLimits } from '../ws/sim-socket.js';
import type { MarketWsFaults } from './faults.js';
import type { MarketWsCloseReason, MarketWsMetrics } from './metrics.js';

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

/**
 * One public market socket (API-NOTES §8): its subscriptions and delivery through the market socket
 * faults (lost, reordered frames; dropped sockets); the inbound rate and idle rules of §7 are the
 * shared SimSocket's. Snapshots and replies skip the loss and reorder faults.
 */
export class MarketWsConnection {
  /** Subscription key (`topic|symbol`) → binary frames wanted. */
  readonly subscriptions = new Map<string, boolean>();
  private readonly socket: SimSocket<OutboundFrame, MarketWsCloseReason>;

  constructor(
    ws: WebSocket,
    private readonly deps: MarketWsConnectionDeps,
  ) {
    this.socket = new SimSocket<OutboundFrame, MarketWsCloseReason>(ws, {
      time: deps.time,
      limits: deps.limits,
      metrics: deps.metrics,
      onText: (text) => deps.onRequest(this, text),
      sendFaulted: (frame) => this.sendWithDrop(frame),
      reorder: () => deps.faults.reorder(),
      onFinished: () => deps.onClosed(this),
    });
  }

  get closed(): boolean {
    return this.socket.closed;
  }

  /** A pushed update, through the loss, reorder and drop faults. */
  deliver(frame: OutboundFrame): void {
    if (this.socket.closed) return;
    if (this.deps.faults.lose()) return;
    this.socket.deliver(frame);
  }

  /** A snapshot or a reply: no loss or reorder; a frame of the same subscription still held back is discarded (it predates the snapshot). */
  send(frame: OutboundFrame): void {
    this.socket.discardHeld((held) => held.key === frame.key);
    this.write(frame);
  }

  terminate(reason: MarketWsCloseReason): void {
    this.socket.terminate(reason);
  }

  private sendWithDrop(frame: OutboundFrame): boolean {
    this.write(frame);
    if (!this.deps.faults.drop()) return true;
    this.terminate('fault_drop');
    return false;
  }

  private write(frame: OutboundFrame): void {
    if (!this.socket.writable) return;
    this.socket.write(frame.binary ? gzipSync(frame.text) : frame.text);
    this.deps.metrics.framesSent.inc({ topic: frame.topic });
  }
}
