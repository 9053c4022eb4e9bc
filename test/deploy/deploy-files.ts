import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/** The repository's deployment files, as the tests read them. */
export const ROOT = process.cwd();
export const DOCKER_DIR = join(ROOT, 'deploy', 'docker');
/** Where docker-compose.yml mounts deploy/docker inside the containers. */
export const CONTAINER_CONFIG_DIR = '/etc/stratd';

/** A docker/systemd env file: KEY=VALUE lines, # comments. */
export function readEnvFile(path: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const raw of readFileSync(path, 'utf8').split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const at = line.indexOf('=');
    if (at <= 0) throw new Error(`${path}: not KEY=VALUE: ${line}`);
    env[line.slice(0, at)] = line.slice(at + 1);
  }
  return env;
}

export interface ComposeService {
  readonly build?: string;
  readonly image?: string;
  readonly command?: string[];
  readonly env_file?: string;
  readonly volumes?: string[];
  readonly ports?: string[];
  readonly depends_on?: Record<string, { condition: string }>;
  readonly healthcheck?: { test: string[] };
  readonly stop_grace_period?: string;
  readonly read_only?: boolean;
}

export function readCompose(): { services: Record<string, ComposeService>; volumes: Record<string, unknown> } {
  return parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, ComposeService>; volumes: Record<string, unknown> };
}

/** A path inside the containers' /etc/stratd, as the file of deploy/docker it is. */
export function hostPathOf(containerPath: string): string {
  if (!containerPath.startsWith(`${CONTAINER_CONFIG_DIR}/`)) throw new Error(`${containerPath} is not under ${CONTAINER_CONFIG_DIR}`);
  return join(DOCKER_DIR, containerPath.slice(CONTAINER_CONFIG_DIR.length + 1));
}
