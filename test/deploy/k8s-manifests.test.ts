import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Ajv } from 'ajv';
import { parseShardSpec } from '../../src/sweep/shard/index.js';
import { prepareRun } from '../../src/app/commands/run.js';
import { loadDaemonConfig } from '../../src/settings/daemon-config/daemon-config.js';
import { ROOT } from './deploy-files.js';
import type { K8sDocument } from './k8s-files.js';
import { readK8sDocuments } from './k8s-files.js';

/**
 * deploy/k8s: every manifest passes the vendored subset of the Kubernetes API schema
 * (test/fixtures/k8s), and the manifests agree with each other and with the CLI: the Indexed Job's
 * shard count, its folders and the merge step's; the live StatefulSet's config, keys, state volume and
 * probes.
 */
const run = promisify(execFile);
const SCHEMA: unknown = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'k8s', 'k8s-subset.schema.json'), 'utf8'));
const SCHEMA_ID = 'https://stratd.local/k8s-subset.schema.json';
const DEFINITION: Readonly<Record<string, string>> = {
  Job: 'io.k8s.api.batch.v1.Job',
  StatefulSet: 'io.k8s.api.apps.v1.StatefulSet',
  PersistentVolumeClaim: 'io.k8s.api.core.v1.PersistentVolumeClaim',
  Service: 'io.k8s.api.core.v1.Service',
  ConfigMap: 'io.k8s.api.core.v1.ConfigMap',
};

const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
ajv.addSchema(SCHEMA as object);
function validate(doc: Pick<K8sDocument, 'kind' | 'content'>): string[] {
  const definition = DEFINITION[doc.kind];
  if (definition === undefined) return [`kind ${doc.kind}: not in the vendored schema subset`];
  const check = ajv.getSchema(`${SCHEMA_ID}#/definitions/${definition}`);
  if (check === undefined) throw new Error(`no schema for ${definition}`);
  return check(doc.content) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

interface EnvVar {
  readonly name: string;
  readonly value?: string;
  readonly valueFrom?: { readonly secretKeyRef?: { readonly name: string; readonly key: string } };
}
interface Container {
  readonly args?: readonly string[];
  readonly env?: readonly EnvVar[];
  readonly volumeMounts?: ReadonlyArray<{ readonly name: string; readonly mountPath: string }>;
  readonly ports?: ReadonlyArray<{ readonly name?: string; readonly containerPort: number }>;
  readonly startupProbe?: { readonly httpGet?: { readonly path: string; readonly port: string | number } };
  readonly livenessProbe?: { readonly httpGet?: { readonly path: string; readonly port: string | number } };
}
interface PodSpec {
  readonly containers: readonly Container[];
  readonly restartPolicy?: string;
  readonly terminationGracePeriodSeconds?: number;
  readonly volumes?: ReadonlyArray<{ readonly name: string; readonly persistentVolumeClaim?: { readonly claimName: string }; readonly configMap?: { readonly name: string } }>;
}
interface Job {
  readonly spec: { readonly completionMode?: string; readonly completions?: number; readonly parallelism?: number; readonly backoffLimit?: number; readonly template: { readonly spec: PodSpec } };
}
interface StatefulSet {
  readonly spec: {
    readonly serviceName: string;
    readonly replicas: number;
    readonly selector: { readonly matchLabels: Readonly<Record<string, string>> };
    readonly template: { readonly metadata: { readonly labels: Readonly<Record<string, string>> }; readonly spec: PodSpec };
    readonly volumeClaimTemplates: ReadonlyArray<{ readonly metadata: { readonly name: string }; readonly spec: { readonly accessModes: readonly string[] } }>;
  };
}
interface Service {
  readonly spec: { readonly clusterIP?: string; readonly selector: Readonly<Record<string, string>>; readonly ports: ReadonlyArray<{ readonly port: number }> };
}
interface ConfigMap {
  readonly data: Readonly<Record<string, string>>;
}

const docs = readK8sDocuments();
/** A document, by kind and name, as its (schema-checked) shape. */
function find<T>(kind: string, name: string): T {
  const doc = docs.find((d) => d.kind === kind && d.name === name);
  if (doc === undefined) throw new Error(`deploy/k8s has no ${kind} ${name}`);
  return doc.content as unknown as T;
}
const container = (spec: PodSpec): Container => {
  const [only, ...more] = spec.containers;
  if (only === undefined || more.length > 0) throw new Error('one container expected');
  return only;
};
const envValue = (c: Container, name: string): string | undefined => c.env?.find((e) => e.name === name)?.value;
const flag = (args: readonly string[], name: string): string | undefined => {
  const at = args.indexOf(name);
  return at < 0 ? undefined : args[at + 1];
};
/** Kubernetes' $(VAR) expansion of container args from the container's environment. */
const expand = (text: string, env: Readonly<Record<string, string>>): string => text.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (whole, name: string) => env[name] ?? whole);

describe('deploy/k8s manifests', () => {
  it('are all of kinds the vendored schema covers, and every one passes it', () => {
    expect(docs.map((d) => `${d.file}: ${d.kind} ${d.name}`).sort()).toEqual([
      'live/stratd-alpha.yaml: ConfigMap stratd-alpha',
      'live/stratd-alpha.yaml: Service stratd-alpha',
      'live/stratd-alpha.yaml: StatefulSet stratd-alpha',
      'sweep/data-pvc.yaml: PersistentVolumeClaim stratd-sweep-data',
      'sweep/merge-job.yaml: Job stratd-sweep-1-merge',
      'sweep/sweep-job.yaml: Job stratd-sweep-1',
    ]);
    for (const doc of docs) expect([doc.file, doc.kind, validate(doc)]).toEqual([doc.file, doc.kind, []]);
  });

  it('the schema refuses a misspelt field, a wrong enum value and a missing required field', () => {
    const job = docs.find((d) => d.kind === 'Job')!;
    const spec = job.content['spec'] as Record<string, unknown>;
    expect(validate({ kind: 'Job', content: { ...job.content, spec: { ...spec, completionMod: 'Indexed' } } }).join()).toContain('additionalProperty":"completionMod"');
    expect(validate({ kind: 'Job', content: { ...job.content, spec: { ...spec, completionMode: 'indexed' } } }).join()).toContain('/spec/completionMode must be equal to one of the allowed values');
    const { template: _template, ...noTemplate } = spec;
    expect(validate({ kind: 'Job', content: { ...job.content, spec: noTemplate } }).join()).toContain("must have required property 'template'");
  });
});

describe('the sharded sweep: Indexed Job, merge Job, shared volume', () => {
  const sweep = find<Job>('Job', 'stratd-sweep-1');
  const merge = find<Job>('Job', 'stratd-sweep-1-merge');
  const shardContainer = container(sweep.spec.template.spec);
  const args = shardContainer.args ?? [];
  const count = sweep.spec.completions ?? 0;
  const env = (index: number): Record<string, string> => ({ SWEEP_RUN: envValue(shardContainer, 'SWEEP_RUN') ?? '', JOB_COMPLETION_INDEX: String(index) });

  it('runs N indexed pods at once, each `--shard <its index>/N` into its own folder, never restarted in place', () => {
    expect(sweep.spec.completionMode).toBe('Indexed');
    expect(count).toBeGreaterThan(1);
    expect(sweep.spec.parallelism).toBe(count);
    expect(sweep.spec.template.spec.restartPolicy).toBe('Never');
    expect(args.slice(0, 1)).toEqual(['sweep']);
    const outs = new Set<string>();
    for (let index = 0; index < count; index++) {
      const shard = parseShardSpec(expand(flag(args, '--shard') ?? '', env(index)));
      expect(shard).toEqual({ ok: true, value: { index, count, mode: 'round-robin' } });
      outs.add(expand(flag(args, '--out') ?? '', env(index)));
    }
    expect(outs.size).toBe(count);
  });

  it('the merge step lists exactly the N shard folders and writes beside them, without retries', () => {
    const mergeArgs = container(merge.spec.template.spec).args ?? [];
    const folders = Array.from({ length: count }, (_, index) => expand(flag(args, '--out') ?? '', env(index)));
    expect(mergeArgs.slice(0, 2)).toEqual(['sweep', 'merge']);
    expect(mergeArgs.slice(2, 2 + count)).toEqual(folders);
    expect(mergeArgs.slice(2 + count)).toEqual(['--out', `/data/results/${env(0)['SWEEP_RUN']}/merged`]);
    expect(merge.spec.backoffLimit).toBe(0);
  });

  it('both mount the ReadWriteMany claim of the manifest, at the folder their paths use', () => {
    const claim = find<{ spec: { accessModes: string[] } }>('PersistentVolumeClaim', 'stratd-sweep-data');
    expect(claim.spec.accessModes).toEqual(['ReadWriteMany']);
    for (const job of [sweep, merge]) {
      const volume = job.spec.template.spec.volumes?.find((v) => v.persistentVolumeClaim !== undefined);
      expect(volume?.persistentVolumeClaim?.claimName).toBe('stratd-sweep-data');
      const mount = container(job.spec.template.spec).volumeMounts?.find((m) => m.name === volume?.name);
      expect(mount?.mountPath).toBe('/data');
    }
    for (const path of [flag(args, '--data'), flag(args, '--out')]) expect(path).toMatch(/^\/data\//);
  });

  it('passes only options `stratd sweep` and `stratd sweep merge` document (the built CLI)', async () => {
    const bin = join(ROOT, 'bin', 'stratd.js');
    // Both at once: each is a whole CLI start-up.
    const [sweep, merged] = await Promise.all([run(process.execPath, [bin, 'sweep', '--help']), run(process.execPath, [bin, 'sweep', 'merge', '--help'])]);
    const sweepHelp = sweep.stdout;
    const mergeHelp = merged.stdout;
    for (const option of args.filter((a) => a.startsWith('--'))) expect([option, sweepHelp.includes(`${option} <`)]).toEqual([option, true]);
    for (const option of (container(merge.spec.template.spec).args ?? []).filter((a) => a.startsWith('--'))) expect([option, mergeHelp.includes(`${option} <`)]).toEqual([option, true]);
  }, 120_000);
});

describe('the live daemon of one account: StatefulSet, its ConfigMap, Service and Secret', () => {
  const set = find<StatefulSet>('StatefulSet', 'stratd-alpha');
  const service = find<Service>('Service', 'stratd-alpha');
  const configMap = find<ConfigMap>('ConfigMap', 'stratd-alpha');
  const pod = set.spec.template.spec;
  const daemon = container(pod);
  const args = daemon.args ?? [];
  const keys = { STRATD_API_KEY: 'k'.repeat(64), STRATD_API_SECRET: 's'.repeat(64) };
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'stratd-k8s-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  /** The ConfigMap's file the daemon's --config names, written where a test can load it. */
  const configFile = (): string => {
    const path = flag(args, '--config') ?? '';
    const mount = daemon.volumeMounts?.find((m) => path.startsWith(`${m.mountPath}/`));
    const volume = pod.volumes?.find((v) => v.name === mount?.name);
    expect(volume?.configMap?.name).toBe('stratd-alpha');
    const text = configMap.data[path.slice((mount?.mountPath.length ?? 0) + 1)];
    if (text === undefined) throw new Error(`the ConfigMap has no file for ${path}`);
    const file = join(dir, 'stratd.yml');
    writeFileSync(file, text);
    return file;
  };

  it('is one replica (one daemon per account), its own state volume at STRATD_STATE_DIR, kept when the set is deleted', () => {
    expect(set.spec.replicas).toBe(1);
    expect(args.slice(0, 1)).toEqual(['run']);
    const [state, ...others] = set.spec.volumeClaimTemplates;
    expect(others).toEqual([]);
    expect(state?.spec.accessModes).toEqual(['ReadWriteOnce']);
    expect(daemon.volumeMounts?.find((m) => m.name === state?.metadata.name)?.mountPath).toBe(envValue(daemon, 'STRATD_STATE_DIR'));
    expect(set.spec.selector.matchLabels).toEqual(set.spec.template.metadata.labels);
  });

  it('takes its keys from its own Secret, as the variables its config names', () => {
    const refs = (daemon.env ?? []).flatMap((e) => (e.valueFrom?.secretKeyRef === undefined ? [] : [[e.name, e.valueFrom.secretKeyRef.name]]));
    expect(refs).toEqual([
      ['STRATD_API_KEY', 'stratd-alpha-keys'],
      ['STRATD_API_SECRET', 'stratd-alpha-keys'],
    ]);
    const without = loadDaemonConfig(configFile(), { env: {} });
    expect(without.ok ? 'loaded' : without.error.reason).toBe('environment variable STRATD_API_KEY is not set');
  });

  it('its config loads live with those keys and prepares as `stratd run` does; it stops within the grace period', async () => {
    const file = configFile();
    const loaded = loadDaemonConfig(file, { env: keys });
    if (!loaded.ok) throw loaded.error;
    expect(loaded.value.venue).toMatchObject({ mode: 'live', credentials: { apiKey: keys.STRATD_API_KEY, apiSecret: keys.STRATD_API_SECRET } });
    expect(loaded.value.shutdown.timeoutMs).toBeLessThan((pod.terminationGracePeriodSeconds ?? 30) * 1000);
    const prepared = await prepareRun({ config: file }, keys);
    if (!prepared.ok) throw prepared.error;
    expect(prepared.value.strategies.map((s) => s.id)).toEqual(['quoter-btc']);
  });

  it('is probed on /healthz at the port its health server listens on (on the pod address), the headless Service selects it', () => {
    const loaded = loadDaemonConfig(configFile(), { env: keys });
    if (!loaded.ok) throw loaded.error;
    const port = daemon.ports?.find((p) => p.name === 'http');
    expect(port?.containerPort).toBe(loaded.value.health.port);
    expect(loaded.value.health.host).toBe('0.0.0.0');
    for (const probe of [daemon.startupProbe, daemon.livenessProbe]) expect(probe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(set.spec.serviceName).toBe('stratd-alpha');
    expect(service.spec.clusterIP).toBe('None');
    expect(service.spec.selector).toEqual(set.spec.template.metadata.labels);
    expect(service.spec.ports.map((p) => p.port)).toEqual([loaded.value.health.port]);
  });
});
