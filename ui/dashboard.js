// stratd's dashboard: reads the daemon's pushed views (GET /ui/events, Server-Sent Events read with
// fetch so the token travels in a header) and steps the kill switch and strategies through POST /control/….
// The token lives in this tab's sessionStorage only, never in a URL.
'use strict';
(() => {
  const TOKEN_KEY = 'stratd.controlToken';
  const RETRY_MS = 2000;
  const LC = window.LightweightCharts;
  const $ = (id) => document.getElementById(id);
  const INTERVAL_S = { '1m': 60, '3m': 180, '5m': 300, '15m': 900, '30m': 1800, '1h': 3600, '2h': 7200, '4h': 14400, '6h': 21600, '8h': 28800, '12h': 43200, '1d': 86400, '1w': 604800, '1M': 2592000 };
  const charts = new Map();
  let equity;
  let last;
  let reader;
  let retry;

  const token = () => sessionStorage.getItem(TOKEN_KEY);

  function showLogin(message) {
    $('login').hidden = false;
    $('board').hidden = true;
    $('forget-token').hidden = true;
    $('login-error').textContent = message || '';
  }

  function setConnection(ok, text) {
    document.body.dataset.connected = String(ok);
    const el = $('connection');
    el.textContent = text;
    el.className = `pill ${ok ? 'good' : 'bad'}`;
  }

  async function connect() {
    clearTimeout(retry);
    const t = token();
    if (!t) return showLogin('');
    let reply;
    try {
      reply = await fetch('/ui/events', { headers: { authorization: `Bearer ${t}`, accept: 'text/event-stream' }, cache: 'no-store' });
    } catch {
      setConnection(false, 'daemon unreachable');
      retry = setTimeout(connect, RETRY_MS);
      return;
    }
    if (reply.status === 401) {
      sessionStorage.removeItem(TOKEN_KEY);
      setConnection(false, 'token refused');
      return showLogin('The daemon refused this token (401).');
    }
    if (!reply.ok || reply.body === null) {
      setConnection(false, `refused: ${reply.status}`);
      const after = Number(reply.headers.get('retry-after'));
      retry = setTimeout(connect, after > 0 ? after * 1000 : RETRY_MS);
      return;
    }
    $('login').hidden = true;
    $('board').hidden = false;
    $('forget-token').hidden = false;
    setConnection(true, 'live');
    reader = reply.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
          if (data !== '') render(JSON.parse(data));
        }
      }
    } catch {
      // the stream broke: reconnect below
    }
    setConnection(false, 'reconnecting');
    retry = setTimeout(connect, RETRY_MS);
  }

  async function control(path, body) {
    const t = token();
    if (!t) return showLogin('');
    const out = $('action-result');
    try {
      const reply = await fetch(`/control${path}`, { method: 'POST', headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const answer = await reply.json().catch(() => ({}));
      out.className = reply.ok ? '' : 'error';
      out.textContent = reply.ok ? `${path}: done` : `${path}: ${reply.status} ${answer.error || ''}`;
      if (reply.status === 401) showLogin('The daemon refused this token (401).');
    } catch (e) {
      out.className = 'error';
      out.textContent = `${path}: ${e.message}`;
    }
  }

  function cell(tr, text, cls) {
    const td = document.createElement('td');
    td.textContent = text === undefined || text === null ? '' : String(text);
    if (cls) td.className = cls;
    tr.appendChild(td);
    return td;
  }

  function signed(value) {
    const n = Number(value);
    return n > 0 ? 'num pos' : n < 0 ? 'num neg' : 'num';
  }

  function fillBody(id, rows, build) {
    const body = document.querySelector(`#${id} tbody`);
    body.replaceChildren(...rows.map((row) => {
      const tr = document.createElement('tr');
      build(tr, row);
      return tr;
    }));
  }

  const clock = (ms) => new Date(ms).toISOString().slice(11, 19);

  function render(view) {
    last = view;
    const s = view.status;
    // A paper account on the real exchange's prices must never be mistaken for live trading.
    $('mode').textContent = s.liveMarket ? s.liveMarket.source : s.mode;
    $('kernel-state').textContent = `${s.state}${s.ready.ready ? ', ready' : `: ${s.ready.reasons.join('; ')}`}`;
    $('kernel-state').className = `pill ${s.ready.ready ? 'good' : 'warn'}`;
    $('pnl-today').textContent = `PnL today ${s.pnlToday}`;
    const k = s.killSwitch;
    $('kill-state').textContent = k.engaged ? (k.dailyLoss ? 'engaged (daily loss)' : 'engaged') : 'off';
    $('kill-state').className = `pill ${k.engaged ? 'bad' : 'good'}`;
    document.body.dataset.killSwitch = k.engaged ? 'engaged' : 'off';
    $('kill-reason').textContent = k.engaged ? `${k.reason} since ${clock(k.since)}` : k.override ? `daily loss limit overridden: ${k.override.reason}` : '';
    $('override-reason').hidden = !k.dailyLoss;
    renderComponents(s);
    renderStrategies(s, s.positions);
    fillBody('balances', s.balances, (tr, b) => {
      cell(tr, b.asset);
      cell(tr, b.walletBalance, 'num');
      cell(tr, b.availableBalance, 'num');
      cell(tr, b.lockedMargin, 'num');
      cell(tr, b.unrealizedPnl, signed(b.unrealizedPnl));
    });
    fillBody('positions', s.positions, (tr, p) => {
      for (const [v, c] of [[p.symbol], [p.side], [p.qty, 'num'], [p.avgPrice, 'num'], [p.markPrice, 'num'], [p.unrealizedPnl, signed(p.unrealizedPnl)], [p.liquidationPrice ?? '—', 'num'], [p.margin, 'num']]) cell(tr, v, c);
    });
    const orders = [...s.openOrders.map((o) => ({ ...o, kind: o.type, at: o.price })), ...s.openAlgoOrders.map((o) => ({ ...o, at: o.triggerPrice, filledQty: '' }))];
    fillBody('orders', orders, (tr, o) => {
      for (const [v, c] of [[o.strategy], [o.symbol], [o.kind], [o.side], [o.at, 'num'], [o.quantity, 'num'], [o.filledQty, 'num'], [o.status]]) cell(tr, v, c);
    });
    fillBody('feed', view.feed, (tr, f) => {
      tr.dataset.kind = f.kind;
      cell(tr, clock(f.time));
      cell(tr, f.strategy);
      cell(tr, f.symbol);
      if (f.kind === 'fill') {
        cell(tr, `${f.side} ${f.qty} @ ${f.price}`, f.side === 'BUY' ? 'pos' : 'neg');
        cell(tr, `pnl ${f.realizedPnl}, fee ${f.fee}${f.maker ? ', maker' : ''}`);
      } else {
        cell(tr, `denied ${f.code}`, 'error');
        cell(tr, f.message);
      }
    });
    if (LC !== undefined) {
      for (const c of view.charts) renderChart(c, view.kind === 'full');
      renderEquity(view.equity, view.kind === 'full');
    }
  }

  function renderComponents(s) {
    const c = s.components;
    const rows = [
      ...c.userStreams.map((u) => [`user stream ${u.category}`, `${u.state}, ${u.reconnects} reconnects`]),
      ['clock offset', `${c.clock.offsetMs} ms${c.clock.synced ? '' : ' (not synced)'}`],
      ['rate budget', `weight ${c.rateBudget.weightUsed}/${c.rateBudget.weightLimit}, orders ${c.rateBudget.ordersUsed}/${c.rateBudget.ordersLimit}${c.rateBudget.banned ? ', BANNED' : ''}`],
      ['last reconciliation', c.reconciliation === null ? 'none yet' : `${clock(c.reconciliation.time)} ${c.reconciliation.ok ? 'ok' : `failed: ${c.reconciliation.error}`}`],
      ['market polls', `${c.market.polls} (${c.market.failures} failed)`],
      ['journal', c.journal.writable ? 'writable' : `NOT writable (${c.journal.failures} failures)`],
      ...(s.liveMarket ? liveMarketRows(s.liveMarket) : []),
    ];
    const body = $('components');
    body.replaceChildren(...rows.map(([name, value]) => {
      const tr = document.createElement('tr');
      cell(tr, name);
      cell(tr, value);
      return tr;
    }));
  }

  function liveMarketRows(m) {
    const stale = Object.entries(m.books).filter(([, state]) => state === 'stale').map(([symbol]) => symbol);
    const lags = m.channels.filter((ch) => ch.lagMs !== undefined).map((ch) => ch.lagMs);
    return [
      ['live market', `${m.baseUrl}${stale.length > 0 ? `, STALE book: ${stale.join(', ')}` : ''}`],
      ['feed lag (max)', lags.length === 0 ? 'no data yet' : `${Math.max(...lags)} ms`],
    ];
  }

  function renderStrategies(s, positions) {
    fillBody('strategies', s.strategies, (tr, st) => {
      tr.dataset.strategy = st.id;
      cell(tr, st.id);
      cell(tr, st.state, st.state === 'running' ? 'pos' : 'neg');
      cell(tr, st.symbols.join(', '));
      cell(tr, positions.filter((p) => st.symbols.includes(p.symbol)).map((p) => `${p.side} ${p.qty}`).join(', ') || 'flat');
      cell(tr, s.openOrders.filter((o) => o.strategy === st.id).length + s.openAlgoOrders.filter((o) => o.strategy === st.id).length, 'num');
      cell(tr, st.today ? st.today.fills : 0, 'num');
      cell(tr, st.today ? st.today.realizedPnl : '0', signed(st.today ? st.today.realizedPnl : 0));
      cell(tr, st.lastError || '', 'error');
      const td = cell(tr, '');
      const button = document.createElement('button');
      const running = st.state === 'running';
      button.textContent = running ? 'Stop' : 'Start';
      button.className = running ? 'danger' : '';
      button.dataset.action = running ? 'stop' : 'start';
      button.addEventListener('click', () => control(`/strategies/${encodeURIComponent(st.id)}/${running ? 'stop' : 'start'}`, {}));
      td.appendChild(button);
    });
  }

  /** The browser's language when Intl knows it (a POSIX-style `en-US@posix` makes the charts throw). */
  const locale = (() => {
    try {
      return Intl.getCanonicalLocales(navigator.language)[0];
    } catch {
      return 'en-US';
    }
  })();

  const chartOptions = (el) => ({
    localization: { locale },
    width: el.clientWidth,
    height: el.clientHeight,
    layout: { background: { color: '#1a1f26' }, textColor: '#d7dde5' },
    grid: { vertLines: { color: '#2b323c' }, horzLines: { color: '#2b323c' } },
    timeScale: { timeVisible: true, secondsVisible: false },
    autoSize: true,
  });

  function renderChart(c, full) {
    let chart = charts.get(c.symbol);
    if (chart === undefined) {
      const box = document.createElement('div');
      const title = document.createElement('p');
      title.className = 'chart-title';
      title.textContent = c.interval ? `${c.symbol} · ${c.interval} candles` : `${c.symbol} · fills (no klines polled for it: add market[].klines)`;
      const el = document.createElement('div');
      el.className = 'chart';
      el.dataset.symbol = c.symbol;
      box.append(title, el);
      $('charts').appendChild(box);
      const api = LC.createChart(el, chartOptions(el));
      const series = c.interval ? api.addSeries(LC.CandlestickSeries, { upColor: '#26a69a', downColor: '#ef5350', borderVisible: false, wickUpColor: '#26a69a', wickDownColor: '#ef5350' }) : api.addSeries(LC.LineSeries, { color: '#8a96a5', lineWidth: 1 });
      chart = { api, series, markers: LC.createSeriesMarkers(series, []), lines: new Map(), el };
      charts.set(c.symbol, chart);
      full = true;
    }
    const step = c.interval ? INTERVAL_S[c.interval] : 1;
    const candles = c.candles.map((k) => ({ time: k.time, open: Number(k.open), high: Number(k.high), low: Number(k.low), close: Number(k.close) }));
    if (c.interval) {
      if (full) chart.series.setData(candles);
      else for (const k of candles) updateBar(chart, k);
      if (candles.length > 0) chart.lastTime = Math.max(chart.lastTime || 0, candles[candles.length - 1].time);
    } else if (full || c.fills.length !== chart.fillCount) {
      const byTime = new Map(c.fills.map((f) => [Math.floor(f.time / 1000), Number(f.price)]));
      chart.series.setData([...byTime].sort((a, b) => a[0] - b[0]).map(([time, value]) => ({ time, value })));
    }
    chart.fillCount = c.fills.length;
    chart.el.dataset.candles = String(c.interval ? chart.series.data().length : 0);
    const markers = c.fills.map((f) => {
      const t = Math.floor(f.time / 1000);
      return { time: t - (t % step), position: f.side === 'BUY' ? 'belowBar' : 'aboveBar', color: f.side === 'BUY' ? '#26a69a' : '#ef5350', shape: f.side === 'BUY' ? 'arrowUp' : 'arrowDown', text: `${f.strategy} ${f.side} ${f.qty}@${f.price}` };
    });
    chart.markers.setMarkers(markers.sort((a, b) => a.time - b.time));
    chart.el.dataset.markers = String(markers.length);
    const wanted = new Map(c.lines.map((l) => [`${l.label}@${l.price}`, l]));
    for (const [key, line] of chart.lines) if (!wanted.has(key)) {
      chart.series.removePriceLine(line);
      chart.lines.delete(key);
    }
    for (const [key, l] of wanted) if (!chart.lines.has(key)) {
      chart.lines.set(key, chart.series.createPriceLine({ price: Number(l.price), color: l.side === 'BUY' ? '#26a69a' : '#ef5350', lineWidth: 1, lineStyle: LC.LineStyle.Dashed, axisLabelVisible: true, title: l.label }));
    }
    chart.el.dataset.lines = String(chart.lines.size);
  }

  /** The forming candle (append or replace), or the one just closed before it (a historical update). */
  function updateBar(chart, k) {
    try {
      chart.series.update(k, k.time < (chart.lastTime || 0));
    } catch {
      // a bar older than the chart that it never had: nothing to correct
    }
  }

  function renderEquity(e, full) {
    if (equity === undefined) {
      const el = $('equity-chart');
      const api = LC.createChart(el, chartOptions(el));
      equity = api.addSeries(LC.AreaSeries, { lineColor: '#4e8cff', topColor: 'rgba(78,140,255,0.35)', bottomColor: 'rgba(78,140,255,0.02)', lineWidth: 2 });
      full = true;
    }
    $('equity-asset').textContent = e.asset || '';
    const points = [];
    for (const p of e.points) {
      const time = Math.floor(p.time / 1000);
      if (points.length > 0 && points[points.length - 1].time === time) points.pop();
      points.push({ time, value: Number(p.value) });
    }
    if (full) equity.setData(points);
    else for (const p of points) {
      try {
        equity.update(p);
      } catch {
        // a point older than the curve's last (a clock step back): skipped
      }
    }
  }

  $('token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const value = $('token-input').value.trim();
    if (value === '') return;
    sessionStorage.setItem(TOKEN_KEY, value);
    $('token-input').value = '';
    connect();
  });
  $('forget-token').addEventListener('click', () => {
    sessionStorage.removeItem(TOKEN_KEY);
    if (reader !== undefined) reader.cancel();
    showLogin('');
  });
  $('halt-button').addEventListener('click', () => {
    const reason = $('halt-reason').value.trim();
    control('/halt', reason === '' ? {} : { reason });
  });
  $('resume-button').addEventListener('click', () => {
    const override = $('override-reason').value.trim();
    const dailyLoss = last !== undefined && last.status.killSwitch.dailyLoss === true;
    if (dailyLoss && override === '') {
      $('action-result').className = 'error';
      $('action-result').textContent = 'The daily loss limit holds the switch: give a reason to override it for the rest of the day.';
      return;
    }
    control('/resume', dailyLoss ? { overrideDailyLoss: override } : {});
  });
  connect();
})();
