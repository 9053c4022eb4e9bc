import type { WebSocket } from 'ws';
import type { TimeSource } from '../../core/clock.js';
import { SimSocket } from '../ws/sim-socket.js';
import type { ConnectionLimits } from '../ws/sim-socket.js';
import type { StreamFrame } from './account-frames.js';
import type { StreamFaults } from './stream-faults.js';
import type { CloseReason, StreamMetrics } from './stream-metrics.js';

export type { ConnectionLimits } from '../ws/sim-socket.js';

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
 * One user-stream socket: heartbeat replies and delivery of account events through the stream faults
 * (reorder, garbage, duplicate, drop); the idle and inbound-rate rules are the shared SimSocket's.
 */
export class UserStreamConnection {
  private readonly socket: SimSocket<StreamFrame, CloseReason>;

  constructor(
    readonly listenKey: string,
    ws: WebSocket,
    private readonly deps: ConnectionDeps,
  ) {
    this.socket = new SimSocket<StreamFrame, CloseReason>(ws, {
      time: deps.time,
      limits: deps.limits,
      metrics: deps.metrics,
      onText: (text) => this.onText(text),
      sendFaulted: (frame) => this.sendWithFaults(frame),
      reorder: () => deps.faults.reorder(),
      onFinished: () => deps.onClosed(this),
    });
  }

  /** An account event, through the reorder, garbage, duplicate and drop faults. */
  deliver(frame: StreamFrame): void {
    this.socket.deliver(frame);
  }

  /** A frame outside the fault model (listenKeyWillExpire). */
  notify(frame: StreamFrame): void {
    this.send(frame);
  }

  /** Closes with a close frame. */
  close(reason: CloseReason): void {
    this.socket.close(reason, reason === 'inbound_rate' ? CLOSE_POLICY : CLOSE_NORMAL, closeText(reason));
  }

  /** Cuts the connection without a close frame. */
  terminate(reason: CloseReason): void {
    this.socket.terminate(reason);
  }

  private sendWithFaults(frame: StreamFrame): boolean {
    const text = this.deps.faults.garbled(frame.text);
    this.send(text === frame.text ? frame : { ...frame, text });
    if (this.deps.faults.duplicate()) this.send(frame);
    if (!this.deps.faults.drop()) return true;
    this.terminate('fault_drop');
    return false;
  }

  private send(frame: StreamFrame): void {
    if (this.socket.write(frame.text)) this.deps.metrics.framesSent.inc({ kind: frame.kind });
  }

  private onText(text: string): void {
    if (isPing(text)) this.send({ kind: 'pong', text: JSON.stringify({ pong: this.deps.time.clock.now() }) });
    // Anything else is ignored: the user stream takes no requests, and an error frame would carry a
    // top-level `code`, which ccxt-pro treats as fatal (API-NOTES §7).
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
