import type { NotifyEventKind } from '../../settings/daemon-config/notify.js';

/** One message for the sinks: what happened, when, a line of text for people and the figures for machines. */
export interface Notification {
  readonly event: NotifyEventKind;
  /** Epoch ms (the daemon's clock). */
  readonly time: number;
  /** One short line: the subject. */
  readonly title: string;
  /** The whole message for chat sinks: the title, then details on following lines. */
  readonly text: string;
  /** Figures as text (decimals as strings, ids as strings): the generic webhook's `data`. */
  readonly data: Readonly<Record<string, string | number | boolean>>;
}
