import { isMap, isSeq, LineCounter, parseDocument, visit } from 'yaml';
import type { Document, Node } from 'yaml';
import type { z } from 'zod';
import type { Result } from '../core/result.js';
import { err, ok } from '../core/result.js';
import { readBoundedFile } from './bounded-file.js';
import { ConfigError } from './config-error.js';

/** A parsed YAML file that can point back at the line and column of any path in it. */
export interface YamlSource {
  readonly file: string;
  readonly value: unknown;
  locate(path: ReadonlyArray<PropertyKey>): { line?: number; column?: number };
}

/** A YAML file: a regular file of at most 1 MiB (a pipe, a device or a huge file is refused unread). */
export function readYamlFile(file: string): Result<YamlSource, ConfigError> {
  const read = readBoundedFile(file);
  if (!read.ok) return err(new ConfigError(read.error, { file }));
  return parseYamlText(read.value.text, file);
}

export function parseYamlText(text: string, file: string): Result<YamlSource, ConfigError> {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const first = doc.errors[0];
  if (first !== undefined) {
    const pos = lines.linePos(first.pos[0]);
    return err(new ConfigError(`invalid YAML: ${first.message.split('\n')[0] ?? first.message}`, { file, line: pos.line, column: pos.col }));
  }
  // A node that contains an alias to itself has no finite value: every reader of it would recurse forever.
  const recursive = recursiveAliasAt(doc);
  if (recursive !== undefined) {
    const pos = lines.linePos(recursive.offset);
    return err(new ConfigError(`invalid YAML: the alias *${recursive.name} refers to a node that contains it (a recursive alias has no finite value)`, { file, line: pos.line, column: pos.col }));
  }
  let value: unknown;
  try {
    value = doc.toJS();
  } catch (error: unknown) {
    // An alias to an anchor that is not defined (`*name`) only fails here, as a thrown ReferenceError.
    const pos = lines.linePos(unresolvedAliasAt(doc) ?? 0);
    return err(new ConfigError(`invalid YAML: ${error instanceof Error ? error.message : String(error)}`, { file, line: pos.line, column: pos.col }));
  }
  return ok({
    file,
    value,
    locate: (path) => {
      const node = nodeAt(doc, path);
      const offset = node?.range?.[0] ?? (path.length === 0 ? 0 : undefined);
      if (offset === undefined) return {};
      const pos = lines.linePos(offset);
      return { line: pos.line, column: pos.col };
    },
  });
}

/** Validates `value` (or the part at `under`) with a schema; the first issue becomes a located ConfigError. */
export function validateYaml<S extends z.ZodType>(source: YamlSource, schema: S, value: unknown = source.value, under: ReadonlyArray<PropertyKey> = []): Result<z.output<S>, ConfigError> {
  const result = schema.safeParse(value);
  if (result.success) return ok(result.data);
  const issue = result.error.issues[0];
  const path = [...under, ...(issue?.path ?? [])];
  // Point at the deepest node that exists (a missing key points at its parent).
  let at = source.locate(path);
  for (let n = path.length - 1; at.line === undefined && n >= 0; n--) at = source.locate(path.slice(0, n));
  return err(new ConfigError(issue?.message ?? 'invalid', { file: source.file, ...at, path: formatPath(path) }));
}

export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`)).join('');
}

/** The first alias that lies inside the node its anchor names (`a: &a {b: *a}`), and where it is. */
function recursiveAliasAt(doc: Document): { offset: number; name: string } | undefined {
  let found: { offset: number; name: string } | undefined;
  visit(doc, {
    Alias(_key, node) {
      const target = node.resolve(doc);
      const at = node.range?.[0];
      const span = target?.range;
      if (at === undefined || span === undefined || span === null || at < span[0] || at >= span[1]) return undefined;
      found = { offset: at, name: node.source };
      return visit.BREAK;
    },
  });
  return found;
}

/** Where the first alias without its anchor is. */
function unresolvedAliasAt(doc: Document): number | undefined {
  let at: number | undefined;
  visit(doc, {
    Alias(_key, node) {
      if (node.resolve(doc) !== undefined) return undefined;
      at = node.range?.[0];
      return visit.BREAK;
    },
  });
  return at;
}

function nodeAt(doc: Document, path: ReadonlyArray<PropertyKey>): Node | undefined {
  let node: unknown = doc.contents;
  for (const key of path) {
    if (isMap(node)) node = node.get(String(key), true);
    else if (isSeq(node) && typeof key === 'number') node = node.get(key, true);
    else return undefined;
  }
  return (node ?? undefined) as Node | undefined;
}
