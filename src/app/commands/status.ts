import { z } from 'zod';

/** The parts of GET /status the summary shows (the daemon may send more). */
const row = z.record(z.string(), z.unknown());
const statusShape = z.looseObject({
  time: z.number(),
  mode: z.string(),
  liveMarket: z.looseObject({ source: z.string(), baseUrl: z.string(), books: z.record(z.string(), z.string()) }).optional(),
  uptimeMs: z.number(),
  state: z.string(),
  ready: z.looseObject({ ready: z.boolean(), reasons: z.array(z.string()) }),
  killSwitch: z.looseObject({
    engaged: z.boolean(),
    reason: z.string(),
    since: z.number().optional(),
    dailyLoss: z.boolean().optional(),
    override: z.looseObject({ reason: z.string(), at: z.number() }).optional(),
  }),
  pnlToday: z.string(),
  strategies: z.array(
    z.looseObject({
      id: z.string(),
      state: z.string(),
      symbols: z.array(z.string()),
      queued: z.number(),
      delivered: z.number(),
      lastError: z.string().optional(),
      today: z.looseObject({ fills: z.number(), realizedPnl: z.string(), fees: z.string() }).optional(),
    }),
  ),
  balances: z.array(row).optional(),
  positions: z.array(row),
  openOrders: z.array(row),
  openAlgoOrders: z.array(row),
  components: z.looseObject({
    userStreams: z.array(z.looseObject({ category: z.string(), state: z.string(), reconnects: z.number() })),
    clock: z.looseObject({ synced: z.boolean(), offsetMs: z.number() }),
  }),
  lastErrors: z.record(z.string(), z.looseObject({ message: z.string(), at: z.number().optional() })),
  reload: z
    .looseObject({ at: z.number(), ok: z.boolean(), error: z.string().optional(), applied: z.array(z.string()), rejected: z.array(z.looseObject({ path: z.string(), reason: z.string() })) })
    .nullable(),
});

/** `stratd status` for a person: a few lines per section. Undefined when the reply is not a status. */
export function formatStatus(body: unknown): string | undefined {
  const parsed = statusShape.safeParse(body);
  if (!parsed.success) return undefined;
  const s = parsed.data;
  const lines: string[] = [];
  const ready = s.ready.ready ? 'ready' : `NOT READY (${s.ready.reasons.join('; ')})`;
  lines.push(`stratd ${s.liveMarket === undefined ? s.mode : `${s.liveMarket.source} (${s.liveMarket.baseUrl})`} · ${s.state} · ${ready} · up ${duration(s.uptimeMs)}`);
  if (s.liveMarket !== undefined) lines.push(`  simulated fills on live prices; books: ${Object.entries(s.liveMarket.books).map(([symbol, state]) => `${symbol} ${state}`).join(', ')}`);
  const kill = s.killSwitch.engaged ? `ENGAGED${s.killSwitch.since === undefined ? '' : ` since ${iso(s.killSwitch.since)}`}: ${s.killSwitch.reason}` : 'off';
  lines.push(`PnL today ${s.pnlToday} · kill switch ${kill}`);
  if (s.killSwitch.dailyLoss === true) lines.push('  the daily loss limit holds it until the daily reset (or: stratd resume --override-daily-loss --reason "…")');
  if (s.killSwitch.override !== undefined) lines.push(`  daily loss limit overridden at ${iso(s.killSwitch.override.at)} until the daily reset: ${s.killSwitch.override.reason}`);
  lines.push(`strategies (${s.strategies.length}):`);
  for (const st of s.strategies) {
    const error = st.lastError === undefined ? '' : ` · error: ${st.lastError}`;
    const open = s.openOrders.filter((o) => o['strategy'] === st.id).length + s.openAlgoOrders.filter((o) => o['strategy'] === st.id).length;
    const figures = [
      ...(st.today === undefined ? [] : [`fills today ${st.today.fills}`, `realized pnl today ${st.today.realizedPnl}`, ...(st.today.fees === '' ? [] : [`fees ${st.today.fees}`])]),
      `open orders ${open}`,
      `delivered ${st.delivered} queued ${st.queued}`,
    ];
    lines.push(`  ${st.id}  ${st.state}  ${st.symbols.join(',')}  ${figures.join(' · ')}${error}`);
  }
  if (s.balances !== undefined) {
    lines.push(`account (${s.balances.length}):`);
    for (const b of s.balances) {
      lines.push(`  ${text(b['asset'])} wallet ${text(b['walletBalance'])} · available ${text(b['availableBalance'])} · margin ${text(b['lockedMargin'])} · unrealized ${text(b['unrealizedPnl'])}`);
    }
  }
  lines.push(`positions (${s.positions.length}):`);
  for (const p of s.positions) lines.push(`  ${text(p['symbol'])} ${text(p['side'])} ${text(p['qty'])} @ ${text(p['avgPrice'])} · unrealized ${text(p['unrealizedPnl'])}`);
  lines.push(`open orders (${s.openOrders.length}):`);
  for (const o of s.openOrders) {
    lines.push(`  ${text(o['strategy'])}  ${text(o['symbol'])} ${text(o['side'])} ${text(o['type'])} ${text(o['quantity'])} @ ${text(o['price'])} filled ${text(o['filledQty'])} ${text(o['status'])}  ${text(o['clientOrderId'])}`);
  }
  lines.push(`open plan/TP-SL orders (${s.openAlgoOrders.length}):`);
  for (const o of s.openAlgoOrders) {
    lines.push(`  ${text(o['strategy'])}  ${text(o['symbol'])} ${text(o['kind'])} ${text(o['side'])} ${text(o['quantity'])} trigger ${text(o['triggerPrice'])}  ${text(o['clientOrderId'])}`);
  }
  const streams = s.components.userStreams.map((u) => `${u.category} ${u.state} (reconnects ${u.reconnects})`).join(', ');
  lines.push(`user streams: ${streams === '' ? 'none' : streams} · exchange clock ${s.components.clock.synced ? `synced, offset ${s.components.clock.offsetMs} ms` : 'NOT synced'}`);
  const errors = Object.entries(s.lastErrors);
  if (errors.length > 0) {
    lines.push('last errors:');
    for (const [component, e] of errors) lines.push(`  ${component}${e.at === undefined ? '' : ` at ${iso(e.at)}`}: ${e.message}`);
  }
  if (s.reload !== null) {
    const r = s.reload;
    const outcome = r.ok ? `applied ${r.applied.length === 0 ? 'nothing' : r.applied.join(', ')}` : `FAILED: ${r.error ?? ''}`;
    lines.push(`last reload at ${iso(r.at)}: ${outcome}`);
    for (const rejected of r.rejected) lines.push(`  not applied: ${rejected.path}: ${rejected.reason}`);
  }
  return `${lines.join('\n')}\n`;
}

function text(value: unknown): string {
  return value === undefined || value === null ? '-' : String(value);
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : `${m}m${String(s % 60).padStart(2, '0')}s`;
}
