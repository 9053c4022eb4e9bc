import { readFileSync } from 'node:fs';

/** One Dockerfile instruction, continuation lines joined. */
export interface Instruction {
  readonly keyword: string;
  readonly args: string;
  readonly line: number;
}

export interface Stage {
  readonly image: string;
  readonly name: string | undefined;
  readonly instructions: readonly Instruction[];
}

/** Reads a Dockerfile into stages (parser directives and comments dropped, `\` continuations joined). */
export function parseDockerfile(path: string): Stage[] {
  const instructions: Instruction[] = [];
  let pending: { text: string; line: number } | undefined;
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((raw, index) => {
      const line = raw.trimEnd();
      if (pending === undefined && (line.trim() === '' || line.trimStart().startsWith('#'))) return;
      if (pending !== undefined && line.trimStart().startsWith('#')) return;
      const continued = line.endsWith('\\');
      const text = continued ? line.slice(0, -1) : line;
      pending = pending === undefined ? { text: text.trim(), line: index + 1 } : { text: `${pending.text} ${text.trim()}`, line: pending.line };
      if (continued) return;
      const space = pending.text.search(/\s/);
      instructions.push({ keyword: pending.text.slice(0, space).toUpperCase(), args: pending.text.slice(space + 1).trim(), line: pending.line });
      pending = undefined;
    });
  const stages: Array<{ image: string; name: string | undefined; instructions: Instruction[] }> = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const [image = '', as, name] = instruction.args.split(/\s+/);
      stages.push({ image, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
    } else {
      const stage = stages[stages.length - 1];
      if (stage === undefined) throw new Error(`line ${instruction.line}: ${instruction.keyword} before FROM`);
      stage.instructions.push(instruction);
    }
  }
  return stages;
}

/** The JSON array of an exec-form instruction (ENTRYPOINT, CMD, HEALTHCHECK … CMD), or undefined for shell form. */
export function execForm(args: string): string[] | undefined {
  if (!args.startsWith('[')) return undefined;
  const parsed: unknown = JSON.parse(args);
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === 'string')) return undefined;
  return parsed as string[];
}

/** HEALTHCHECK's options (--interval=…) and its command, in exec form. */
export function healthcheck(args: string): { options: Map<string, string>; command: string[] | undefined } {
  const options = new Map<string, string>();
  let rest = args;
  for (let match = /^--([a-z-]+)=(\S+)\s+/.exec(rest); match !== null; match = /^--([a-z-]+)=(\S+)\s+/.exec(rest)) {
    options.set(match[1] ?? '', match[2] ?? '');
    rest = rest.slice(match[0].length);
  }
  if (!rest.startsWith('CMD ')) return { options, command: undefined };
  return { options, command: execForm(rest.slice(4).trim()) };
}

/** `KEY=value KEY2=value2` (ENV) as a map. */
export function assignments(args: string): Map<string, string> {
  return new Map(args.split(/\s+/).map((pair): [string, string] => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}
