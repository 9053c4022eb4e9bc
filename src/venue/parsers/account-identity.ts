import { z } from 'zod';
import { id64 } from '../wire/schema.js';

/** GET /api/v1/account as far as the account's identity goes: `userId` (the balances are not read here). */
export const accountIdentitySchema = z.object({ userId: id64 });
export type AccountIdentity = z.output<typeof accountIdentitySchema>;
