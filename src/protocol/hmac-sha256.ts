import { createHash } from 'node:crypto';

/**
 * HMAC-SHA256 (RFC 2104, FIPS 180-4) of UTF-8 text under one key, as lowercase hex, in plain
 * JavaScript. Why not `createHmac`: a request is signed once per poll interval, with cold caches,
 * and there node:crypto's per-call set-up (a Hmac stream object, OpenSSL's context and its digest
 * fetch) cost ~50 µs against ~13 µs here (both ~2.5 µs warm). The key's inner and outer pad
 * blocks are compressed once per key, so a call hashes the text's blocks and one outer block.
 * Only 32-bit adds, xors and rotations on the key's state: no table indexed by secret data.
 */
export function hmacSha256Hex(key: string): (text: string) => string {
  const given = Buffer.from(key, 'utf8');
  // A key longer than a block is its hash; a shorter one is padded with zeros.
  const keyBytes = new Uint8Array(BLOCK);
  keyBytes.set(given.length > BLOCK ? createHash('sha256').update(given).digest() : given);
  const pad = new Uint8Array(BLOCK);
  const inner = Int32Array.from(IV);
  const outer = Int32Array.from(IV);
  for (let i = 0; i < BLOCK; i++) pad[i] = keyBytes[i]! ^ 0x36;
  compress(inner, pad, 0);
  for (let i = 0; i < BLOCK; i++) pad[i] = keyBytes[i]! ^ 0x5c;
  compress(outer, pad, 0);
  return (text) => {
    // The inner hash: pad block (already in `inner`), then the text, padded to whole blocks.
    const length = encode(text);
    const blocks = paddedLength(length);
    setLength(message, blocks, BLOCK + length);
    state.set(inner);
    for (let at = 0; at < blocks; at += BLOCK) compress(state, message, at);
    // The outer hash: pad block (already in `outer`), then the inner digest, padded to one block.
    for (let i = 0; i < 8; i++) writeWord(digestBlock, i * 4, state[i]!);
    state.set(outer);
    compress(state, digestBlock, 0);
    let hex = '';
    for (let i = 0; i < 8; i++) {
      const word = state[i]!;
      for (let shift = 28; shift >= 0; shift -= 4) hex += HEX[(word >>> shift) & 15]!;
    }
    return hex;
  };
}

const BLOCK = 64;
const HEX = '0123456789abcdef';
const IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
const K = Int32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
  0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
  0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
  0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** Work areas shared by every signer (a call runs to its end before another starts). */
const schedule = new Int32Array(64);
const state = new Int32Array(8);
const digestBlock = new Uint8Array(BLOCK);
const encoder = new TextEncoder();
let message = new Uint8Array(1024);

// The outer message is always the pad block and a 32-byte digest: its padding never changes.
setLength(digestBlock, BLOCK, BLOCK + 32);

/** Writes `text` as UTF-8 at the start of `message` (grown to fit it and its padding); its byte length. */
function encode(text: string): number {
  const most = text.length * 3 + 2 * BLOCK;
  if (message.length < most) message = new Uint8Array(most);
  return encoder.encodeInto(text, message).written;
}

/** Bytes of `length` message bytes with the 0x80 marker and the 8-byte bit count, a whole number of blocks. */
function paddedLength(length: number): number {
  return Math.ceil((length + 9) / BLOCK) * BLOCK;
}

/**
 * SHA-256 padding in `bytes`, which hold a message's bytes after its pad block, up to `end`: the 0x80
 * marker after them, zeros, then the bit count of everything hashed (`hashedBytes`, pad block included).
 */
function setLength(bytes: Uint8Array, end: number, hashedBytes: number): void {
  const length = hashedBytes - BLOCK;
  bytes[length] = 0x80;
  bytes.fill(0, length + 1, end - 8);
  const bits = hashedBytes * 8;
  writeWord(bytes, end - 8, Math.floor(bits / 0x100000000));
  writeWord(bytes, end - 4, bits >>> 0);
}

function writeWord(bytes: Uint8Array, at: number, word: number): void {
  bytes[at] = word >>> 24;
  bytes[at + 1] = (word >>> 16) & 0xff;
  bytes[at + 2] = (word >>> 8) & 0xff;
  bytes[at + 3] = word & 0xff;
}

/** One SHA-256 block (64 bytes of `bytes` from `at`) into `h`. */
function compress(h: Int32Array, bytes: Uint8Array, at: number): void {
  const w = schedule;
  for (let i = 0; i < 16; i++) {
    const j = at + i * 4;
    w[i] = (bytes[j]! << 24) | (bytes[j + 1]! << 16) | (bytes[j + 2]! << 8) | bytes[j + 3]!;
  }
  for (let i = 16; i < 64; i++) {
    const x = w[i - 15]!;
    const y = w[i - 2]!;
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
  }
  let a = h[0]!;
  let b = h[1]!;
  let c = h[2]!;
  let d = h[3]!;
  let e = h[4]!;
  let f = h[5]!;
  let g = h[6]!;
  let k = h[7]!;
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (k + s1 + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    k = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  h[0] = (h[0]! + a) | 0;
  h[1] = (h[1]! + b) | 0;
  h[2] = (h[2]! + c) | 0;
  h[3] = (h[3]! + d) | 0;
  h[4] = (h[4]! + e) | 0;
  h[5] = (h[5]! + f) | 0;
  h[6] = (h[6]! + g) | 0;
  h[7] = (h[7]! + k) | 0;
}
