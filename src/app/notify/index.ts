/** Notifications: kernel events to webhooks, Slack, Discord and Telegram, without ever holding up trading. */
export { Notifier } from './notifier.js';
export type { NotifierOptions } from './notifier.js';
export type { Notification } from './notification.js';
