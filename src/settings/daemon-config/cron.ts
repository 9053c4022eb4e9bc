import { validateDetailed } from 'node-cron';
import { z } from 'zod';

/**
 * A cron expression as node-cron (the scheduler of src/app/daemon/cron-scheduler.ts) reads it: 5 fields, or 6
 * with seconds first; evaluated in UTC. Only validation happens here; scheduling stays in that adapter.
 */
export const cronExpression = z.string({ error: 'a cron expression in quotes, such as "*/5 * * * *"' }).trim().superRefine((text, ctx) => {
  const result = validateDetailed(text);
  if (result.valid) return;
  const first = result.errors[0];
  const why = first === undefined ? 'invalid' : first.field === 'expression' ? first.message : `${first.field}: ${first.message}`;
  ctx.addIssue({ code: 'custom', message: `"${text}" is not a cron expression (${why}); use 5 fields, or 6 with seconds first` });
});
