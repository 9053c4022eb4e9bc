/** Section → key → every value given (systemd keys may repeat). */
export function parseUnit(source: string): Map<string, Map<string, string[]>> {
  const sections = new Map<string, Map<string, string[]>>();
  let current: Map<string, string[]> | undefined;
  for (const raw of source.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header !== null) {
      current = new Map();
      sections.set(header[1] ?? '', current);
      continue;
    }
    if (current === undefined) throw new Error(`key outside a section: ${line}`);
    const at = line.indexOf('=');
    const key = line.slice(0, at).trim();
    current.set(key, [...(current.get(key) ?? []), line.slice(at + 1).trim()]);
  }
  return sections;
}
