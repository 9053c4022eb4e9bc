// Sums a V8 .cpuprofile (node --cpu-prof) by function: self time, or inclusive time with --inclusive.
//
//   node scripts/cpu-profile-summary.mjs PROFILE [--top N] [--from URL-PART] [--inclusive] [--match REGEX]
//
// --from URL-PART: only the samples from the first one whose stack holds a frame of a script whose URL
// contains URL-PART (e.g. engine/kernel.js: the daemon's part of `npm run bench -- tick`, after the floor).
// Samples are wall-clock deltas: time the thread waited on the CPU (a loaded machine) lands on the frame
// that was running, so a syscall that wakes another process (a socket write, an fsync handed to a worker)
// shows up with the time it lost, not only its CPU.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const file = args.find((a, i) => !a.startsWith('--') && (i === 0 || !['--top', '--from', '--match'].includes(args[i - 1] ?? '')));
if (file === undefined) {
  process.stderr.write('usage: node scripts/cpu-profile-summary.mjs PROFILE [--top N] [--from URL-PART] [--inclusive] [--match REGEX]\n');
  process.exit(2);
}
const option = (name) => {
  const at = args.indexOf(name);
  return at < 0 ? undefined : args[at + 1];
};
const top = Number(option('--top') ?? 40);
const from = option('--from');
const match = new RegExp(option('--match') ?? '.');
const inclusive = args.includes('--inclusive');

const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
const name = (id) => {
  const { functionName, url, lineNumber } = nodes.get(id).callFrame;
  return `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${lineNumber + 1}`;
};
const stackHas = new Map();
const holds = (id) => {
  if (from === undefined) return true;
  if (!stackHas.has(id)) stackHas.set(id, nodes.get(id).callFrame.url.includes(from) || (parent.has(id) && holds(parent.get(id))));
  return stackHas.get(id);
};

const start = Math.max(0, profile.samples.findIndex((id) => holds(id)));
const totals = new Map();
let wall = 0;
for (let i = start; i < profile.samples.length; i++) {
  const delta = profile.timeDeltas[i] ?? 0;
  wall += delta;
  if (!inclusive) {
    const key = name(profile.samples[i]);
    totals.set(key, (totals.get(key) ?? 0) + delta);
    continue;
  }
  const seen = new Set();
  for (let id = profile.samples[i]; id !== undefined; id = parent.get(id)) {
    const key = name(id);
    if (seen.has(key)) continue;
    seen.add(key);
    totals.set(key, (totals.get(key) ?? 0) + delta);
  }
}
process.stdout.write(`${(wall / 1000).toFixed(0)} ms of samples${from === undefined ? '' : ` from the first with ${from}`}; ${inclusive ? 'inclusive' : 'self'} time by function:\n`);
const rows = [...totals].filter(([key]) => match.test(key)).sort((a, b) => b[1] - a[1]).slice(0, top);
for (const [key, us] of rows) process.stdout.write(`${(us / 1000).toFixed(1).padStart(10)} ms ${((100 * us) / wall).toFixed(1).padStart(5)} %  ${key}\n`);
