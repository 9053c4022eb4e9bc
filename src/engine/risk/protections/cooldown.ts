import type { CooldownSpec } from '../../../model/protections.js';
import type { Exit } from './protection.js';
import { BaseProtection } from './protection.js';

/** Every exit trips it: no new entries of the scope until `resumeAfterMs` after the last exit. */
export class Cooldown extends BaseProtection<CooldownSpec> {
  override onExit(_scopeKey: string, exit: Exit): string | undefined {
    return `an exit (order ${exit.orderId}) starts a cooldown`;
  }
}
