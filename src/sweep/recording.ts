import { deserialize, serialize } from 'node:v8';
import { InvariantError } from '../core/errors.js';
import { ParsedRecording } from '../recording/parsed-recording.js';
import type { ParsedRecordingParts } from '../recording/parsed-recording.js';

/**
 * A recording parsed once by a sweep's main thread, in a form its worker threads open without reading,
 * decompressing, parsing and validating the file again: the parsed events serialized once into shared
 * memory (every worker reads the same bytes, none is copied per worker). `form` names the layout, so
 * another one (a columnar prepared form of the recording) can be added beside it.
 */
export interface SharedRecording {
  readonly form: 'v8-serialized';
  readonly buffer: SharedArrayBuffer;
  /** Events it holds, all recordings together. */
  readonly events: number;
}

/** The parsed recording in shared memory, for worker threads. */
export function shareRecording(parsed: ParsedRecording): SharedRecording {
  const bytes = serialize(parsed.parts());
  const buffer = new SharedArrayBuffer(bytes.byteLength);
  new Uint8Array(buffer).set(bytes);
  return { form: 'v8-serialized', buffer, events: parsed.size };
}

/** A worker's own ParsedRecording from the shared bytes. */
export function openSharedRecording(shared: SharedRecording): ParsedRecording {
  const parts = deserialize(new Uint8Array(shared.buffer)) as ParsedRecordingParts;
  const recording = ParsedRecording.fromParts(parts);
  if (recording.size !== shared.events) throw new InvariantError('SHARED_RECORDING', `the shared recording holds ${recording.size} events, ${shared.events} were shared`);
  return recording;
}
