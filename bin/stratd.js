#!/usr/bin/env node
// Launches the compiled CLI (built by `npm ci` through the prepare script, or `npm run build`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = new URL('../dist/src/app/commands/cli.js', import.meta.url);
if (!existsSync(fileURLToPath(cli))) {
  process.stderr.write('stratd: not built yet; run `npm ci` or `npm run build` first\n');
  process.exit(2);
}
await import(cli.href);
