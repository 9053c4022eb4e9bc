import { assertNever } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { AccountEvent } from '../../model/account-events.js';
import { parseUserStreamFrame } from '../parsers/user-stream-frames.js';
import { FillSides } from './fill-sides.js';
import type { FrameContext, ListenKeyWillExpire, StreamAccountItem } from './frames/frame-types.js';
import type { TableSize } from '../../core/table-size.js';

export interface InboxHandlers {
  account(event: AccountEvent): void;
  pong(): void;
  willExpire(notice: ListenKeyWillExpire): void;
}

/**
 * Routes inbound text frames: account events out (fills completed with their order's position side),
 * heartbeat replies and expiry notices to the session. Error frames and unreadable frames are logged and
 * skipped; a stream never dies of one bad frame.
 */
export class StreamInbox {
  private readonly fills = new FillSides();

  constructor(
    private readonly context: FrameContext,
    private readonly logger: Logger,
    private readonly handlers: InboxHandlers,
  ) {}

  /** Sizes of the fill-completion tables (metrics), with their count bound. */
  sizes(): readonly TableSize[] {
    return [
      { name: 'orders', size: this.fills.orderCount, limit: this.fills.limit },
      { name: 'ordersWithWaitingTickets', size: this.fills.waitingOrderCount, limit: this.fills.limit },
    ];
  }

  receive(text: string): void {
    const parsed = parseUserStreamFrame(text, this.context);
    if (!parsed.ok) {
      const { kind, event, field, message } = parsed.error;
      this.logger.warn({ kind, event, field, message }, 'user stream: unreadable frame');
      return;
    }
    const frame = parsed.value;
    switch (frame.kind) {
      case 'account':
        for (const item of frame.items) this.deliver(item);
        return;
      case 'pong':
        this.handlers.pong();
        return;
      case 'willExpire':
        this.handlers.willExpire(frame.notice);
        return;
      case 'error':
        this.logger.warn({ code: frame.code, message: frame.message }, 'user stream: error frame');
        return;
      default:
        assertNever(frame, 'user-stream frame');
    }
  }

  private deliver(item: StreamAccountItem): void {
    if (item.type === 'stream.execution') {
      this.fills.noteExecution(item);
      return;
    }
    if (item.type === 'stream.ticket') {
      const dropped = this.fills.dropped;
      const filled = this.fills.resolve(item);
      if (filled !== undefined) this.handlers.account(filled);
      if (this.fills.dropped !== dropped) this.logger.warn({ dropped: this.fills.dropped }, 'user stream: fills without an order report dropped');
      return;
    }
    this.handlers.account(item);
    if (item.type === 'account.order') for (const filled of this.fills.noteOrder(item.order)) this.handlers.account(filled);
  }
}
