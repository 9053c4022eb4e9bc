// Sums V8's optimizing (TurboFan) compiles of one isolate by function and by file: how often each
// function was compiled and deoptimized, the compile time V8 reported and the size of the code it made.
//
//   node --trace-opt --trace-deopt --log-code --log-deopt --logfile=DIR/v8.log bin/stratd.js sweep … > TRACE
//   node scripts/turbofan-compile-summary.mjs TRACE DIR/isolate-…-v8.log [--top N] [--deopts]
//
// V8 writes one log per isolate (a sweep's worker threads each have theirs); the trace interleaves every
// isolate's lines, so a compile counts when its function (SharedFunctionInfo) is one the log's isolate
// made code for. The log names each function with its file:line:col and gives its code's size; the trace
// gives each compile's milliseconds (prepare, execute on a helper thread, finalize: summed). Those are
// wall-clock times of the compiling thread: on a loaded machine they grow with the wait for a core, so
// compare the code sizes (deterministic) before the milliseconds. --deopts lists where the deoptimized
// code left (file:line:col of the deopt point, its reason) weighted by the size of the code it threw away.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const files = args.filter((a, i) => !a.startsWith('--') && (i === 0 || args[i - 1] !== '--top'));
if (files.length !== 2) {
  process.stderr.write('usage: node scripts/turbofan-compile-summary.mjs TRACE ISOLATE-LOG [--top N] [--deopts]\n');
  process.exit(2);
}
const [traceFile, logFile] = files;
const topAt = args.indexOf('--top');
const top = topAt < 0 ? 25 : Number(args[topAt + 1]);
const showDeopts = args.includes('--deopts');

const short = (name) => name.replace(/(file:\/\/)?\/[^ ]*?\/(node_modules|dist)\//g, '$2/');
/** The log prints a SharedFunctionInfo's address untagged; the trace prints it tagged (+1). */
const untagged = (tagged) => `0x${(BigInt(tagged) - 1n).toString(16)}`;

const nameOf = new Map(); // SharedFunctionInfo → "name file:line:col"
const codeOf = new Map(); // code address → its function and size
const fns = new Map();
const entry = (name) => {
  let e = fns.get(name);
  if (e === undefined) fns.set(name, (e = { compiles: 0, ms: 0, bytes: 0, deopts: 0 }));
  return e;
};
const deoptSites = new Map();
for (const line of readFileSync(logFile, 'utf8').split('\n')) {
  if (line.startsWith('code-creation,JS,') && line.endsWith(',*')) {
    // code-creation,JS,kind,time,address,size,name…,sfi,state (a name may hold commas)
    const parts = line.split(',');
    const name = short(parts.slice(6, -2).join(',')).trim() || '(anonymous)';
    nameOf.set(parts.at(-2), name);
    const size = Number(parts[5]);
    codeOf.set(parts[4], { name, size });
    const e = entry(name);
    e.compiles++;
    e.bytes += size;
  } else if (line.startsWith('code-deopt,')) {
    // code-deopt,time,size,code,inliningId,scriptOffset,kind,position,reason
    const parts = line.split(',');
    const code = codeOf.get(parts[3]);
    if (code === undefined) continue;
    entry(code.name).deopts++;
    const site = `${short(parts[7] ?? '').replace(/^<|>.*$/g, '')} ${parts.slice(8).join(',')} (in ${code.name.split(' ')[0] || '(anonymous)'})`;
    deoptSites.set(site, (deoptSites.get(site) ?? 0) + code.size);
  }
}
const took = /completed compiling .*?\(sfi = (0x[0-9a-f]+)\)> \(target TURBOFAN\)(?: OSR)? - took ([\d.]+), ([\d.]+), ([\d.]+) ms/;
for (const line of readFileSync(traceFile, 'utf8').split('\n')) {
  const m = took.exec(line);
  if (m === null) continue;
  const name = nameOf.get(untagged(m[1]));
  if (name !== undefined) entry(name).ms += Number(m[2]) + Number(m[3]) + Number(m[4]);
}

const all = [...fns.values()];
const sum = (list, key) => list.reduce((s, e) => s + e[key], 0);
const totalMs = sum(all, 'ms');
const kb = (bytes) => (bytes / 1024).toFixed(0);
console.log(`${sum(all, 'compiles')} compiles of ${all.length} functions, ${totalMs.toFixed(0)} ms, ${kb(sum(all, 'bytes'))} KB of code, ${sum(all, 'deopts')} deopts`);
const table = (title, rows) => {
  console.log(`\n${title}\n    ms  share  compiles  deopts  code KB`);
  for (const [name, e] of rows.slice(0, top)) {
    console.log(`${e.ms.toFixed(0).padStart(6)}  ${((100 * e.ms) / totalMs).toFixed(1).padStart(4)}%  ${String(e.compiles).padStart(8)}  ${String(e.deopts).padStart(6)}  ${kb(e.bytes).padStart(7)}  ${name}`);
  }
};
const byMs = (a, b) => b[1].ms - a[1].ms;
table('by function', [...fns].sort(byMs));
const perFile = new Map();
for (const [name, e] of fns) {
  const file = name.split(' ').at(-1).replace(/:\d+:\d+$/, '');
  const f = perFile.get(file) ?? { compiles: 0, ms: 0, bytes: 0, deopts: 0 };
  for (const key of ['compiles', 'ms', 'bytes', 'deopts']) f[key] += e[key];
  perFile.set(file, f);
}
table('by file', [...perFile].sort(byMs));
if (showDeopts) {
  console.log('\ndeopt sites by the size of the code they threw away (KB)');
  for (const [site, bytes] of [...deoptSites].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${kb(bytes).padStart(5)}  ${site}`);
}
