import { deserialize, serialize } from 'node:v8';
import { InvariantError } from '../core/errors.js';
import type { RecordingReplay } from '../recording/feed.js';
import { ParsedRecording } from '../recording/parsed-recording.js';
import type { ParsedRecordingParts } from '../recording/parsed-recording.js';
import { PreparedRecording } from '../recording/prepared/recording.js';
import type { SharedPreparedRecording } from '../recording/prepared/recording.js';

/**
 * A recording parsed once by a sweep's main thread, in a form its worker threads open without reading,
 * decompressing, parsing and validating the file again: the parsed events serialized once into shared
 * memory (every worker reads the same bytes, none is copied per worker). `form` names the layout:
 * `SharedReplay` adds the prepared (columnar) form beside it.
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

/**
 * What a sweep's main thread shares with its workers: the parsed events (`SharedRecording`, --no-cache),
 * or the prepared form's columns, decoded and checked once, each in shared memory.
 */
export type SharedReplay = SharedRecording | { readonly form: 'prepared-columns'; readonly prepared: SharedPreparedRecording; readonly events: number };

/** The recording the main thread read (prepared or parsed: what `parseRecordings` gives), in shared memory, for worker threads. */
export function shareReplay(recording: RecordingReplay): SharedReplay {
  if (recording instanceof PreparedRecording) return { form: 'prepared-columns', prepared: recording.shared(), events: recording.size };
  if (recording instanceof ParsedRecording) return shareRecording(recording);
  throw new InvariantError('SHARED_RECORDING', 'only a prepared or a parsed recording can be shared');
}

/** A worker's own replayable recording over the shared memory. */
export async function openSharedReplay(shared: SharedReplay): Promise<RecordingReplay> {
  if (shared.form === 'v8-serialized') return openSharedRecording(shared);
  const recording = await PreparedRecording.fromShared(shared.prepared);
  if (recording.size !== shared.events) throw new InvariantError('SHARED_RECORDING', `the shared recording holds ${recording.size} events, ${shared.events} were shared`);
  return recording;
}
