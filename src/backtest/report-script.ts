/**
 * The report's inline script (plain ES5, no network): reads the JSON in #report-data, draws each
 * `figure[data-chart]` as inline SVG, then sets `document.body.dataset.chartsDrawn` to how many it drew.
 * Price charts mark fills: buys as up triangles, sells as down triangles (class `fill-marker`).
 */
export const REPORT_SCRIPT = String.raw`(function () {
  'use strict';
  var NS = 'http://www.w3.org/2000/svg';
  var W = 960, H = 280, L = 84, R = 16, T = 12, B = 34;
  var data = JSON.parse(document.getElementById('report-data').textContent);

  function el(name, attrs, parent) {
    var node = document.createElementNS(NS, name);
    for (var key in attrs) if (Object.prototype.hasOwnProperty.call(attrs, key)) node.setAttribute(key, String(attrs[key]));
    if (parent) parent.appendChild(node);
    return node;
  }
  function text(parent, x, y, content, cls) {
    var node = el('text', { x: x, y: y, 'class': cls }, parent);
    node.textContent = content;
    return node;
  }
  function time(t) { return new Date(t).toISOString().replace('T', ' ').slice(0, 19); }
  function label(v) {
    var a = Math.abs(v);
    return a >= 1000 ? v.toFixed(1) : a >= 1 ? v.toFixed(3) : v.toPrecision(3);
  }
  function round(v) { return Math.round(v * 10) / 10; }

  function draw(figure, points, markers, percent) {
    var svg = el('svg', { viewBox: '0 0 ' + W + ' ' + H, width: '100%', role: 'img', 'class': 'chart-svg' }, null);
    var all = points.concat(markers);
    var t0 = Infinity, t1 = -Infinity, v0 = Infinity, v1 = -Infinity;
    for (var i = 0; i < all.length; i++) {
      t0 = Math.min(t0, all[i][0]); t1 = Math.max(t1, all[i][0]);
      v0 = Math.min(v0, all[i][1]); v1 = Math.max(v1, all[i][1]);
    }
    el('rect', { x: L, y: T, width: W - L - R, height: H - T - B, 'class': 'plot' }, svg);
    if (all.length === 0) {
      text(svg, W / 2, H / 2, 'no data', 'empty');
      figure.insertBefore(svg, figure.firstChild);
      return;
    }
    if (t1 === t0) { t0 -= 1; t1 += 1; }
    if (v1 === v0) { var pad = Math.abs(v0) * 0.001 || 1; v0 -= pad; v1 += pad; }
    var margin = (v1 - v0) * 0.05; v0 -= margin; v1 += margin;
    function x(t) { return round(L + (t - t0) / (t1 - t0) * (W - L - R)); }
    function y(v) { return round(T + (v1 - v) / (v1 - v0) * (H - T - B)); }
    for (var k = 0; k <= 4; k++) {
      var v = v0 + (v1 - v0) * k / 4;
      el('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), 'class': 'grid' }, svg);
      text(svg, L - 6, y(v) + 4, percent ? (v * 100).toFixed(3) + '%' : label(v), 'tick y');
    }
    text(svg, L, H - 10, time(t0), 'tick x start');
    text(svg, W - R, H - 10, time(t1), 'tick x end');
    if (points.length > 0) {
      var d = '';
      for (var p = 0; p < points.length; p++) d += (p === 0 ? 'M' : 'L') + x(points[p][0]) + ' ' + y(points[p][1]);
      el('path', { d: d, 'class': 'line' }, svg);
    }
    for (var m = 0; m < markers.length; m++) {
      var mx = x(markers[m][0]), my = y(markers[m][1]), buy = markers[m][2] > 0;
      var shape = buy ? [mx, my - 6, mx - 5, my + 4, mx + 5, my + 4] : [mx, my + 6, mx - 5, my - 4, mx + 5, my - 4];
      var marker = el('polygon', { points: shape.join(' '), 'class': 'fill-marker ' + (buy ? 'buy' : 'sell') }, svg);
      el('title', {}, marker).textContent = (buy ? 'BUY ' : 'SELL ') + markers[m][1] + ' at ' + time(markers[m][0]);
    }
    figure.insertBefore(svg, figure.firstChild);
  }

  var drawn = 0;
  var figures = document.querySelectorAll('figure[data-chart]');
  for (var f = 0; f < figures.length; f++) {
    var figure = figures[f], kind = figure.getAttribute('data-chart');
    if (kind === 'equity') draw(figure, data.equity, [], false);
    else if (kind === 'drawdown') draw(figure, data.drawdown, [], true);
    else {
      var chart = data.symbols[Number(figure.getAttribute('data-index'))];
      draw(figure, chart.points, chart.fills, false);
    }
    drawn++;
  }
  document.body.dataset.chartsDrawn = String(drawn);
})();
`;
