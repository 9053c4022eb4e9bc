export interface MetricSample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** GET /metrics of the daemon's health server, parsed (Prometheus text format, samples only). */
export async function scrape(healthUrl: string): Promise<MetricSample[]> {
  const reply = await fetch(`${healthUrl}/metrics`);
  if (reply.status !== 200) throw new Error(`/metrics answered ${reply.status}`);
  return parseMetrics(await reply.text());
}

/** The samples of a Prometheus text exposition. */
export function parseMetrics(text: string): MetricSample[] {
  const samples: MetricSample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match === null) continue;
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1] ?? ''] = pair[2] ?? '';
    samples.push({ name: match[1] ?? '', labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the sample with exactly these labels; undefined when the series does not exist. */
export function sample(samples: readonly MetricSample[], name: string, labels: Readonly<Record<string, string>>): number | undefined {
  const wanted = Object.entries(labels);
  const found = samples.find((s) => s.name === name && Object.keys(s.labels).length === wanted.length && wanted.every(([k, v]) => s.labels[k] === v));
  return found?.value;
}
