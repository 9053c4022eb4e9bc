/** The prepared (columnar, Apache Arrow IPC) form of recordings: written beside them on first use, replayed at memory speed. */
export { PREPARED_FORMAT, PREPARED_VERSION } from './format.js';
export type { PreparedCacheEvent, PreparedCacheOptions } from './cache.js';
export { fileSha256, loadPrepared, preparedDirOf, preparedFileName } from './cache.js';
export { PreparedColumns, PreparedFormatError } from './columns.js';
export { encodePrepared } from './write.js';
export { PreparedRecording, prepareRecordings } from './recording.js';
