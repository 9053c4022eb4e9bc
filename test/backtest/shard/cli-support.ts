import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { shardManifestSchema } from '../../../src/sweep/shard/index.js';

/** The built CLI: each shard is its own process, as on a cluster. */
export const BIN = join(process.cwd(), 'bin', 'stratd.js');
const DIST_CLI = join(process.cwd(), 'dist', 'src', 'app', 'commands', 'cli.js');

export interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Throws unless the build exists (npm test builds before jest). */
export function requireBuild(): void {
  if (!existsSync(DIST_CLI)) throw new Error(`${DIST_CLI} is missing: run \`npm run build\` before this test (npm test does)`);
}

/** Runs `stratd ARGS…` as a child process and collects its output and exit code. */
export function stratd(args: readonly string[]): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Exit code, and stderr only when it failed: a failure shows why. */
export const succeeded = (ran: Ran): { code: number | null; stderr: string } => ({ code: ran.code, stderr: ran.code === 0 ? '' : ran.stderr });

/** stdout without the lines naming output files (their directory differs). */
export const printed = (stdout: string): string => stdout.replace(/^wrote .*$/gm, '');

export const manifestOf = (dir: string): ReturnType<typeof shardManifestSchema.parse> => shardManifestSchema.parse(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')));

/** Every file of `dir` (recursively, sorted) with its bytes. */
export function filesOf(dir: string, under = ''): Array<[string, Buffer]> {
  return readdirSync(join(dir, under), { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry): Array<[string, Buffer]> => {
      const name = join(under, entry.name);
      return entry.isDirectory() ? filesOf(dir, name) : [[name, readFileSync(join(dir, name))]];
    });
}
