import { z } from 'zod';

/** POST /api/v1/listenKey (v1 bare JSON): `{"listenKey":"…"}`. */
export const listenKeySchema = z.object({ listenKey: z.string().min(1, 'expected a listen key') });

/** PUT and DELETE /api/v1/listenKey answer `{}`; extra keys are tolerated. */
export const emptyObject = z.object({});
