import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validate } from 'dockerfile-utils';
import type { Instruction, Stage } from './dockerfile-parse.js';
import { assignments, execForm, healthcheck, parseDockerfile } from './dockerfile-parse.js';

/**
 * The Dockerfile's rules, checked by reading it: no Docker engine runs on these machines and hadolint
 * is in neither registry reached here. The image's start command is run for real by
 * start-command.test.ts.
 */
const ROOT = process.cwd();
const stages = parseDockerfile(join(ROOT, 'Dockerfile'));
const runtime = stages[stages.length - 1] as Stage;
const all = (stage: Stage, keyword: string): Instruction[] => stage.instructions.filter((i) => i.keyword === keyword);
const only = (stage: Stage, keyword: string): Instruction => {
  const found = all(stage, keyword);
  if (found.length !== 1) throw new Error(`expected one ${keyword} in stage ${stage.name ?? '?'}, found ${found.length}`);
  return found[0] as Instruction;
};

describe('Dockerfile', () => {
  it('passes a Dockerfile linter (dockerfile-utils: syntax, instructions, flags; hadolint is in neither registry here)', () => {
    const problems = validate(readFileSync(join(process.cwd(), 'Dockerfile'), 'utf8'));
    expect(problems.map((p) => `${p.range.start.line + 1}: ${p.message}`)).toEqual([]);
  });

  it('is a multi-stage build on Node 20 (Debian bookworm slim), every stage pinned to it', () => {
    expect(stages.map((s) => [s.image, s.name])).toEqual([
      ['node:20-bookworm-slim', 'build'],
      ['node:20-bookworm-slim', 'runtime'],
    ]);
  });

  it('installs with npm ci from the lockfile, never npm install, and ships production dependencies only', () => {
    const runs = stages.flatMap((s) => all(s, 'RUN').map((r) => r.args));
    expect(runs.some((r) => /\bnpm (install|i)\b/.test(r))).toBe(false);
    const build = stages[0] as Stage;
    const buildRuns = all(build, 'RUN').map((r) => r.args);
    expect(buildRuns.some((r) => r.includes('npm ci --ignore-scripts'))).toBe(true);
    // --ignore-scripts skips better-sqlite3's native build too: it must be rebuilt on its own.
    expect(buildRuns.some((r) => r.includes('npm rebuild better-sqlite3'))).toBe(true);
    expect(buildRuns.some((r) => r.includes('npm prune --omit=dev'))).toBe(true);
    // The runtime stage installs nothing: it copies the pruned node_modules.
    expect(all(runtime, 'RUN').some((r) => r.args.includes('npm'))).toBe(false);
    expect(all(runtime, 'COPY').map((c) => c.args)).toContain('--from=build /app/node_modules ./node_modules');
  });

  it('apt-get installs without recommended packages and removes its lists', () => {
    for (const run of stages.flatMap((s) => all(s, 'RUN')).filter((r) => r.args.includes('apt-get install'))) {
      expect(run.args).toContain('--no-install-recommends');
      expect(run.args).toContain('rm -rf /var/lib/apt/lists/*');
    }
  });

  it('runs as the non-root user stratd, set before the start command, never switched back', () => {
    const users = all(runtime, 'USER');
    expect(users.map((u) => u.args)).toEqual(['stratd']);
    const user = users[0] as Instruction;
    expect(user.line).toBeLessThan(only(runtime, 'ENTRYPOINT').line);
    expect(user.line).toBeLessThan(only(runtime, 'CMD').line);
    expect(all(runtime, 'RUN').some((r) => r.args.includes('useradd --system --gid stratd'))).toBe(true);
  });

  it('starts `node bin/stratd.js run --config /etc/stratd/stratd.yml` in exec form (SIGTERM reaches node)', () => {
    expect(execForm(only(runtime, 'ENTRYPOINT').args)).toEqual(['node', 'bin/stratd.js']);
    expect(execForm(only(runtime, 'CMD').args)).toEqual(['run', '--config', '/etc/stratd/stratd.yml']);
    expect(all(runtime, 'STOPSIGNAL').map((s) => s.args)).toEqual(['SIGTERM']);
    expect(only(runtime, 'WORKDIR').args).toBe('/opt/stratd');
  });

  it('keeps state in a volume at STRATD_STATE_DIR, config under /etc/stratd, and exposes the health port', () => {
    const env = assignments(all(runtime, 'ENV').map((e) => e.args).join(' '));
    expect(env.get('STRATD_STATE_DIR')).toBe('/var/lib/stratd');
    expect(env.get('NODE_ENV')).toBe('production');
    expect(execForm(only(runtime, 'VOLUME').args)).toEqual(['/var/lib/stratd']);
    expect(only(runtime, 'EXPOSE').args).toBe('9464');
    expect(all(runtime, 'COPY').map((c) => c.args)).toEqual(expect.arrayContaining(['config/default.yml /etc/stratd/stratd.yml', 'config/sim.yml /etc/stratd/sim.yml']));
  });

  it('has a HEALTHCHECK in exec form: node (no curl in the slim image) asking /healthz on loopback', () => {
    const check = healthcheck(only(runtime, 'HEALTHCHECK').args);
    expect(check.command?.slice(0, 2)).toEqual(['node', '-e']);
    expect(check.command?.[2]).toContain("'http://127.0.0.1:9464/healthz'");
    expect([...check.options.keys()].sort()).toEqual(['interval', 'retries', 'start-period', 'timeout']);
  });

  it('copies only what exists and what .dockerignore lets into the build context', () => {
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#'))
      .map((p) => new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}(/|$)`));
    const sources = stages
      .flatMap((s) => all(s, 'COPY'))
      .filter((c) => !c.args.startsWith('--from='))
      .flatMap((c) => c.args.split(/\s+/).slice(0, -1));
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      expect([source, existsSync(join(ROOT, source))]).toEqual([source, true]);
      expect([source, ignored.some((p) => p.test(source))]).toEqual([source, false]);
    }
    for (const kept of ['node_modules', 'dist', 'state', '.git', 'test']) expect([kept, ignored.some((p) => p.test(kept))]).toEqual([kept, true]);
  });

  it('uses no ADD, no `cd` in RUN (WORKDIR instead), no shell-form ENTRYPOINT or CMD in any stage', () => {
    for (const stage of stages) {
      expect(all(stage, 'ADD')).toEqual([]);
      expect(all(stage, 'RUN').filter((r) => /(^|&&\s*)cd\s/.test(r.args))).toEqual([]);
      for (const i of [...all(stage, 'ENTRYPOINT'), ...all(stage, 'CMD')]) expect(execForm(i.args)).toBeDefined();
    }
  });
});
