/**
 * The text of one trade-log line, from the line's own fields: the JSON line's `msg` (plain) and the
 * terminal's single line (coloured by side and outcome). Pure and dependency-free: pino-pretty's worker
 * thread loads it too (logging/pretty.ts).
 */

/** What a trade-log line records; the JSON field `event`. */
export const TRADE_EVENTS = ['placed', 'filled', 'cancelled', 'rejected', 'denied', 'triggered', 'started', 'stopped', 'failed', 'killSwitch', 'summary'] as const;
export type TradeEvent = (typeof TRADE_EVENTS)[number];

/** The fields of a trade-log line as the JSON line holds them: amounts are decimal text. */
export type TradeFields = Readonly<Record<string, string | number | boolean>> & { readonly event: TradeEvent };

/** Colours (colorette's, or none). */
export interface Paint {
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  magenta(text: string): string;
  gray(text: string): string;
  bold(text: string): string;
}

const identity = (text: string): string => text;
export const NO_PAINT: Paint = { red: identity, green: identity, yellow: identity, cyan: identity, magenta: identity, gray: identity, bold: identity };

/** The component binding of the trade log's lines: what tells them from the daemon's other lines. */
export const TRADE_COMPONENT = 'trade';

export function isTradeEvent(value: unknown): value is TradeEvent {
  return typeof value === 'string' && (TRADE_EVENTS as readonly string[]).includes(value);
}

/** Options of the text: `group` puts thousands separators in amounts (the terminal; JSON keeps the exchange's text). */
export interface LineStyle {
  readonly paint: Paint;
  readonly group: boolean;
}

const PLAIN: LineStyle = { paint: NO_PAINT, group: false };

/** `FILL   quoter BTC-SWAP-USDT BUY 0.010 @ 64,210.5 fee 0.0257 USDT pnl +1.32`, and the like for every event. */
export function tradeLineText(fields: Readonly<Record<string, unknown>>, style: LineStyle = PLAIN): string {
  const { paint } = style;
  const f = (key: string): string => text(fields[key]);
  const amount = (key: string): string => (style.group ? grouped(f(key)) : f(key));
  const event = fields['event'];
  const who = [f('strategy'), f('symbol')].filter((s) => s !== '').join(' ');
  const side = (): string => {
    const s = f('side');
    return s === 'BUY' ? paint.green(s) : s === 'SELL' ? paint.red(s) : s;
  };
  const order = (): string => {
    const price = f('price');
    const at = price === '' || price === '0' ? (f('orderType') === 'MARKET' ? ' MARKET' : '') : ` @ ${amount('price')}`;
    return `${who} ${side()} ${amount('qty')}${at}`;
  };
  const tail = (key: string, label: string): string => (f(key) === '' ? '' : ` ${label}${f(key)}`);
  switch (event) {
    case 'placed':
      return `${label('PLACE', paint.cyan)} ${order()}${tail('kind', '')}${f('triggerPrice') === '' ? '' : ` trigger ${amount('triggerPrice')}`}`;
    case 'filled': {
      const pnl = f('realizedPnl');
      const pnlText = pnl === '' || pnl === '0' ? '' : ` pnl ${signed(pnl, paint, style.group)}`;
      const progress = fields['fillKind'] === 'partial' ? paint.gray(` (partial: ${amount('filledQty')}/${amount('orderQty')})`) : '';
      const fee = f('fee') === '' ? '' : ` fee ${f('fee')} ${f('feeAsset')}`;
      return `${label(fields['fillKind'] === 'partial' ? 'PART' : 'FILL', paint.green)} ${who} ${side()} ${amount('qty')} @ ${amount('price')}${fee}${pnlText}${progress}`;
    }
    case 'cancelled':
      return `${label('CANCEL', paint.yellow)} ${order()}${tail('kind', '')}${tail('reason', '· ')}`;
    case 'rejected':
      return `${label('REJECT', paint.red)} ${order()}${tail('command', '')}: ${paint.red(f('reason'))}`;
    case 'denied':
      return `${label('DENY', paint.red)} ${who} ${f('intent')}: ${paint.red(f('reason'))}${f('suppressed') === '' ? '' : paint.gray(` (${f('suppressed')} alike not shown since the last)`)}`;
    case 'triggered':
      return `${label('TRIGGER', paint.magenta)} ${who} ${f('kind')} ${side()} ${amount('qty')} trigger ${amount('triggerPrice')}${tail('executedOrderId', '→ order ')}`;
    case 'started':
      return `${label('START', paint.cyan)} ${who}`;
    case 'stopped':
      return `${label('STOP', paint.yellow)} ${who}: ${f('reason')}`;
    case 'failed':
      return `${label('ERROR', paint.red)} ${who}: ${paint.red(f('reason'))}`;
    case 'killSwitch':
      return fields['engaged'] === true
        ? `${label('HALT', paint.red)} kill switch engaged: ${paint.red(f('reason'))} · PnL today ${signed(f('dayPnl'), paint, style.group)}`
        : `${label('RESUME', paint.green)} kill switch released: ${f('reason')} · PnL today ${signed(f('dayPnl'), paint, style.group)}`;
    case 'summary': {
      const position = f('position') === '' ? 'flat' : f('position');
      return `${label('SUMMARY', paint.bold)} ${who} ${f('state')} · position ${position} · open orders ${f('openOrders')} · fills today ${f('fillsToday')} · realized pnl today ${signed(f('realizedPnlToday'), paint, style.group)}${tail('feesToday', '· fees ')}`;
    }
    default:
      return f('msg');
  }
}

/** The label in a fixed width, so the columns after it line up. */
function label(name: string, colour: (text: string) => string): string {
  return colour(name.padEnd(7));
}

/** `+1.32` green, `-0.5` red, `0` plain. */
function signed(value: string, paint: Paint, group: boolean): string {
  if (value === '') return '0';
  const shown = group ? grouped(value) : value;
  if (value.startsWith('-')) return paint.red(shown);
  if (/^0(\.0*)?$/.test(value)) return shown;
  return paint.green(`+${shown}`);
}

/** Thousands separators in the integer part of decimal text (text only: no float in between). */
export function grouped(value: string): string {
  const match = /^([+-]?)(\d+)(\.\d+)?$/.exec(value);
  if (match === null) return value;
  const [, sign = '', whole = '', fraction = ''] = match;
  return `${sign}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction}`;
}

/** A field as text on one line (a multi-line reason, such as an error with its stack, is joined with ` | `). */
function text(value: unknown): string {
  if (typeof value === 'string') return value.includes('\n') ? value.split(/\s*\n\s*/).join(' | ') : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}
