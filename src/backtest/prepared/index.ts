/** The prepared (columnar, Apache Arrow IPC) form of recordings: written beside them on first use, replayed at memory speed. */
export { PREPARED_FORMAT, PREPARED_VERSION } from './prepared-format.js';
export type { PreparedCacheEvent, PreparedCacheOptions } from './prepared-cache.js';
export { fileSha256, loadPrepared, preparedDirOf, preparedFileName } from './prepared-cache.js';
export { PreparedColumns, PreparedFormatError } from './prepared-columns.js';
export { encodePrepared } from './prepared-write.js';
export { PreparedRecording, prepareRecordings } from './prepared-recording.js';
