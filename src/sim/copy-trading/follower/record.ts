import type { Decimal } from '../../../core/decimal.js';
import { dec } from '../../../core/decimal.js';
import type { ClosedCopy, CopyPosition } from '../position.js';
import type { FollowConfig } from '../follow-config.js';

const DAY_MS = 86_400_000;

/** An active follow of one leader: its config and what it invested on the current UTC day. */
export class Follow {
  private day = -1;
  private investedToday = dec(0);

  constructor(
    public config: FollowConfig,
    readonly since: number,
  ) {}

  /** Margin invested on the UTC day of `time`. */
  investedOn(time: number): Decimal {
    return Math.floor(time / DAY_MS) === this.day ? this.investedToday : dec(0);
  }

  recordInvestment(time: number, margin: Decimal): void {
    const day = Math.floor(time / DAY_MS);
    this.investedToday = (day === this.day ? this.investedToday : dec(0)).add(margin);
    this.day = day;
  }
}

/**
 * A copy-trading follower: its follows (by leader, in the order they began), open copy positions,
 * closed ones, and realized profit per margin coin. Created by its first PUT /config.
 */
export class FollowerRecord {
  readonly follows = new Map<string, Follow>();
  readonly open: CopyPosition[] = [];
  readonly closed: ClosedCopy[] = [];
  private readonly realized = new Map<string, Decimal>();

  constructor(readonly userId: string) {}

  copiesOf(leaderUserId: string): CopyPosition[] {
    return this.open.filter((p) => p.leaderUserId === leaderUserId);
  }

  realizedIn(coin: string): Decimal {
    return this.realized.get(coin) ?? dec(0);
  }

  addRealized(coin: string, amount: Decimal): void {
    this.realized.set(coin, this.realizedIn(coin).add(amount));
  }
}
