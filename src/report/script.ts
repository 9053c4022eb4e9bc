/**
 * The report's own page script (the chart library, inlined before it, defines `LightweightCharts`).
 * It reads the JSON in #report-data and draws the charts of a tab the first time it is shown: per
 * symbol, candles with the fills as arrows (▲ buy, ▼ sell; one colour pair per run) and TP/SL
 * triggers as circles; equity and drawdown lines. The charts of a tab share their visible time range
 * and crosshair. For tests and tools it sets `window.stratdReport.tabs[id]` to what each chart holds
 * (read back from the library) and `body[data-charts-drawn]` to how many charts it has drawn.
 */
export const REPORT_SCRIPT = String.raw`(function () {
  'use strict';
  var LC = window.LightweightCharts;
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var RUN_COLORS = [['#16a34a', '#dc2626'], ['#2563eb', '#d97706']];
  var STOP_COLORS = { TP: '#7c3aed', SL: '#db2777', plan: '#0891b2' };
  var exposed = { tabs: {} };
  window.stratdReport = exposed;
  var drawn = 0;

  function sec(ms) { return Math.floor(ms / 1000); }
  /** Points as {time, value} in whole seconds, one per second (the last one wins). */
  function line(points) {
    var out = [];
    for (var i = 0; i < points.length; i++) {
      var t = sec(points[i][0]);
      if (out.length > 0 && out[out.length - 1].time === t) out[out.length - 1].value = points[i][1];
      else out.push({ time: t, value: points[i][1] });
    }
    return out;
  }
  /** The time of the bar at or before t (else the first): markers sit on a bar of their series. */
  function snap(times, t) {
    var lo = 0, hi = times.length - 1;
    if (hi < 0 || t <= times[0]) return times[0];
    while (lo < hi) { var mid = (lo + hi + 1) >> 1; if (times[mid] <= t) lo = mid; else hi = mid - 1; }
    return times[lo];
  }
  function chart(el, height, percent) {
    el.style.height = height + 'px';
    return LC.createChart(el, {
      autoSize: true,
      layout: { background: { color: '#ffffff' }, textColor: '#1d2430', fontSize: 11 },
      grid: { vertLines: { color: '#eef0f4' }, horzLines: { color: '#eef0f4' } },
      crosshair: { mode: LC.CrosshairMode.Normal },
      rightPriceScale: { minimumWidth: 96 },
      timeScale: { timeVisible: true, secondsVisible: false },
      localization: percent ? { locale: 'en-US', priceFormatter: function (v) { return (v * 100).toFixed(3) + '%'; } } : { locale: 'en-US' }
    });
  }

  function priceChart(el, pane) {
    var prices = data.prices[pane.symbol];
    var c = chart(el, 380, false);
    var series, points;
    if (prices && prices.candles.length > 0) {
      series = c.addSeries(LC.CandlestickSeries, { upColor: '#26a69a', downColor: '#ef5350', borderVisible: false, wickUpColor: '#26a69a', wickDownColor: '#ef5350' });
      points = prices.candles.map(function (k) { return { time: sec(k[0]), open: k[1], high: k[2], low: k[3], close: k[4] }; });
    } else {
      series = c.addSeries(LC.LineSeries, { color: '#2563eb', lineWidth: 1 });
      points = line(pane.fills.map(function (f) { return [f[0], f[1]]; }));
    }
    series.setData(points);
    var times = points.map(function (p) { return p.time; });
    var markers = [];
    pane.fills.forEach(function (f) {
      var buy = f[2] > 0;
      markers.push({ time: snap(times, sec(f[0])), position: 'atPriceMiddle', price: f[1], shape: buy ? 'arrowUp' : 'arrowDown', color: RUN_COLORS[f[3] % 2][buy ? 0 : 1], size: 0.6 });
    });
    pane.stops.forEach(function (s) {
      markers.push({ time: snap(times, sec(s[0])), position: 'atPriceMiddle', price: s[1], shape: 'circle', color: STOP_COLORS[s[2]], size: 0.4, text: s[2] });
      if (s[3] > 0) markers.push({ time: snap(times, sec(s[3])), position: 'atPriceMiddle', price: s[1], shape: 'square', color: STOP_COLORS[s[2]], size: 0.6, text: s[2] + ' hit' });
    });
    markers.sort(function (a, b) { return a.time - b.time; });
    // A marker sits on a bar of its series: with no bar at all (no prices, no fills) there is nothing to mark.
    var plugin = LC.createSeriesMarkers(series, times.length > 0 ? markers : []);
    return { chart: c, series: series, times: times, kind: 'price', symbol: pane.symbol, candles: prices ? series.data().length : 0, markers: plugin.markers().length,
      buys: pane.fills.filter(function (f) { return f[2] > 0; }).length, sells: pane.fills.filter(function (f) { return f[2] < 0; }).length, stops: pane.stops.length };
  }

  function lineChart(el, kind, points) {
    var down = kind === 'drawdown';
    var c = chart(el, down ? 170 : 240, down);
    var series = down
      ? c.addSeries(LC.AreaSeries, { lineColor: '#dc2626', topColor: 'rgba(220,38,38,0.05)', bottomColor: 'rgba(220,38,38,0.35)', invertFilledArea: true, lineWidth: 1 })
      : c.addSeries(LC.LineSeries, { color: '#2563eb', lineWidth: 2 });
    var values = line(points);
    series.setData(values);
    return { chart: c, series: series, times: values.map(function (p) { return p.time; }), kind: kind, points: series.data().length };
  }

  /** One visible time range and one crosshair for all the charts of a tab. */
  function sync(group) {
    var busy = false;
    group.forEach(function (a) {
      a.chart.timeScale().subscribeVisibleTimeRangeChange(function (range) {
        if (busy || range === null) return;
        busy = true;
        group.forEach(function (b) { if (b !== a) { try { b.chart.timeScale().setVisibleRange(range); } catch (e) { /* no data in range */ } } });
        busy = false;
      });
      a.chart.subscribeCrosshairMove(function (param) {
        if (busy) return;
        busy = true;
        group.forEach(function (b) {
          if (b === a) return;
          if (param.time === undefined || b.times.length === 0) { b.chart.clearCrosshairPosition(); return; }
          var t = snap(b.times, param.time);
          var row = b.series.data()[b.times.indexOf(t)];
          if (row) b.chart.setCrosshairPosition(row.value !== undefined ? row.value : row.close, t, b.series);
        });
        busy = false;
      });
    });
  }

  function drawTab(id) {
    if (exposed.tabs[id]) return;
    var tab = data.tabs.filter(function (t) { return t.id === id; })[0];
    var pane = document.querySelector('section.pane[data-pane="' + id.replace(/["\\]/g, '\\$&') + '"]');
    var group = [];
    pane.querySelectorAll('div.chart').forEach(function (el) {
      var kind = el.getAttribute('data-chart');
      if (kind === 'price') group.push(priceChart(el, tab.symbols[Number(el.getAttribute('data-index'))]));
      else group.push(lineChart(el, kind, kind === 'equity' ? tab.equity : tab.drawdown));
    });
    sync(group);
    group.forEach(function (g) { g.chart.timeScale().fitContent(); });
    exposed.tabs[id] = group.map(function (g) {
      return g.kind === 'price' ? { kind: g.kind, symbol: g.symbol, candles: g.candles, markers: g.markers, buys: g.buys, sells: g.sells, stops: g.stops } : { kind: g.kind, points: g.points };
    });
    drawn += group.length;
    pane.setAttribute('data-drawn', String(group.length));
    document.body.setAttribute('data-charts-drawn', String(drawn));
  }

  function show(id) {
    document.querySelectorAll('button.tab').forEach(function (b) { b.setAttribute('aria-selected', String(b.getAttribute('data-tab') === id)); });
    document.querySelectorAll('section.pane').forEach(function (p) { p.hidden = p.getAttribute('data-pane') !== id; });
    drawTab(id);
  }
  document.querySelectorAll('button.tab').forEach(function (b) { b.addEventListener('click', function () { show(b.getAttribute('data-tab')); }); });
  if (data.tabs.length > 0) show(data.tabs[0].id);
})();
`;
