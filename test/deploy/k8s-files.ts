import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ROOT } from './deploy-files.js';

/** deploy/k8s, as the tests read it. */
export const K8S_DIR = join(ROOT, 'deploy', 'k8s');

/** One document of a manifest file: where it is, and its content as unvalidated JSON. */
export interface K8sDocument {
  readonly file: string;
  readonly kind: string;
  readonly name: string;
  readonly content: Record<string, unknown>;
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(entry.name) ? [path] : [];
  });
}

const record = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

/** Every document of every .yaml under deploy/k8s (YAML 1.1, as kubectl reads it). */
export function readK8sDocuments(): K8sDocument[] {
  return yamlFiles(K8S_DIR).flatMap((path) =>
    parseAllDocuments(readFileSync(path, 'utf8'), { version: '1.1' }).map((doc) => {
      if (doc.errors.length > 0) throw new Error(`${path}: ${doc.errors[0]?.message ?? ''}`);
      const content = record(doc.toJS() as unknown);
      const metadata = record(content['metadata']);
      return { file: relative(K8S_DIR, path), kind: String(content['kind']), name: String(metadata['name']), content };
    }),
  );
}
