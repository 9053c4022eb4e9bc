import { z } from 'zod';
import type { HttpReply, HttpRequest } from '../../venue/http-port.js';
import type { NotifySinkSettings } from '../../settings/daemon-config/notify.js';
import type { Notification } from './notification.js';

/**
 * What each kind of sink is sent and how its reply reads: a generic webhook gets the notification as
 * JSON; Slack `{"text"}`, Discord `{"content"}` (at most 2000 characters) and Telegram's sendMessage
 * `{"chat_id", "text"}` (at most 4096) get the text.
 */

const DISCORD_MAX = 2000;
const TELEGRAM_MAX = 4096;
const SLACK_MAX = 40_000;

export function requestFor(sink: NotifySinkSettings, notification: Notification): HttpRequest {
  return {
    method: 'POST',
    url: sink.url,
    headers: { 'content-type': 'application/json', 'user-agent': 'stratd-notify' },
    body: JSON.stringify(bodyFor(sink, notification)),
    timeoutMs: sink.timeoutMs,
  };
}

function bodyFor(sink: NotifySinkSettings, n: Notification): unknown {
  switch (sink.kind) {
    case 'webhook':
      return { source: 'stratd', sink: sink.name, event: n.event, time: new Date(n.time).toISOString(), title: n.title, text: n.text, data: n.data };
    case 'slack':
      return { text: cut(n.text, SLACK_MAX) };
    case 'discord':
      return { content: cut(n.text, DISCORD_MAX) };
    case 'telegram':
      return { chat_id: sink.chatId, text: cut(n.text, TELEGRAM_MAX), disable_web_page_preview: true };
  }
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A reply, read: delivered; worth another try (after at least `retryAfterMs`, when the receiver said); or refused for good. */
export type ReplyOutcome =
  | { readonly kind: 'sent' }
  | { readonly kind: 'retry'; readonly status: number; readonly retryAfterMs?: number }
  | { readonly kind: 'rejected'; readonly status: number };

/** Telegram's `parameters.retry_after` and Discord's `retry_after`, in seconds. */
const retryAfterBody = z.looseObject({
  retry_after: z.number().nonnegative().optional(),
  parameters: z.looseObject({ retry_after: z.number().nonnegative().optional() }).optional(),
});

export function readReply(reply: HttpReply): ReplyOutcome {
  if (reply.status >= 200 && reply.status < 300) return { kind: 'sent' };
  if (reply.status === 429 || reply.status === 408 || reply.status >= 500) {
    const after = retryAfterMs(reply);
    return after === undefined ? { kind: 'retry', status: reply.status } : { kind: 'retry', status: reply.status, retryAfterMs: after };
  }
  return { kind: 'rejected', status: reply.status };
}

/** The receiver's own wait: the JSON body's retry_after (Telegram, Discord), else the Retry-After header in seconds. */
function retryAfterMs(reply: HttpReply): number | undefined {
  let json: unknown;
  try {
    json = JSON.parse(reply.body);
  } catch {
    json = undefined;
  }
  const body = retryAfterBody.safeParse(json);
  const seconds = body.success ? (body.data.parameters?.retry_after ?? body.data.retry_after) : undefined;
  if (seconds !== undefined) return Math.ceil(seconds * 1000);
  const header = Number(reply.headers['retry-after']);
  return reply.headers['retry-after'] !== undefined && Number.isFinite(header) && header >= 0 ? Math.ceil(header * 1000) : undefined;
}
