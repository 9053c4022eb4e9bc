import { PassThrough } from 'node:stream';
import { ProgressDisplay } from '../../src/backtest/progress-display.js';
import { T0 } from './backtest-support.js';

test('off a terminal: a plain line every interval of wall time, and a last one when done', () => {
  let wall = 0;
  const lines: string[] = [];
  const display = new ProgressDisplay({ tty: false, stream: new PassThrough(), line: (t) => lines.push(t), wallClock: { now: () => wall }, endTime: T0 + 100_000, lineEveryMs: 10_000 });
  wall = 5_000;
  display.update({ events: 1000, time: T0 + 10_000, startTime: T0, done: false });
  expect(lines).toEqual([]);
  wall = 10_000;
  display.update({ events: 50_000, time: T0 + 25_000, startTime: T0, done: false });
  wall = 20_000;
  display.update({ events: 100_000, time: T0 + 100_000, startTime: T0, done: true });
  expect(lines).toEqual([
    'backtest: 25.0% | 50000 events | 5000 events/s | ETA 30 s | at 2026-01-01T00:00:25.000Z\n',
    'backtest: 100.0% | 100000 events | 5000 events/s | done in 20.0 s | at 2026-01-01T00:01:40.000Z\n',
  ]);
});

test('on a terminal: a cli-progress bar with events/s and ETA', () => {
  const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 160 });
  let drawn = '';
  stream.on('data', (chunk: Buffer) => {
    drawn += chunk.toString();
  });
  let wall = 0;
  const display = new ProgressDisplay({ tty: true, stream, line: () => undefined, wallClock: { now: () => wall }, endTime: T0 + 100_000 });
  wall = 1000;
  display.update({ events: 20_000, time: T0 + 50_000, startTime: T0, done: false });
  wall = 2000;
  display.update({ events: 40_000, time: T0 + 100_000, startTime: T0, done: true });
  expect(drawn).toContain('events/s');
  expect(drawn).toContain('ETA');
  expect(drawn).toContain('100%');
});
