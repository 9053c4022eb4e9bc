#!/usr/bin/env node
// Regenerates schema/stratd-config.schema.json (the JSON Schema editors use for the daemon's YAML) from
// the compiled sources: `npm run schema` builds first. test/settings/json-schema.test.ts fails while the
// checked-in file differs from what this writes.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const { publishedConfigSchema } = await import(new URL('../dist/src/app/commands/validate.js', import.meta.url).href);
const target = fileURLToPath(new URL('../schema/stratd-config.schema.json', import.meta.url));
writeFileSync(target, await publishedConfigSchema());
process.stdout.write(`wrote ${target}\n`);
