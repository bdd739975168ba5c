/**
 * Writers of the generated (non-dictionary) string values into a Utf8Column:
 * comments cut from the text pool, random v-string addresses, phone numbers
 * and the 'Prefix#000000042' style names.
 */
import type { Utf8Column } from './column-data.js';
import type { Rng } from './random.js';
import { TEXT_POOL_SIZE } from './text-pool.js';

/** Appends a comment of a uniform length in [minLength, maxLength] cut from `pool` at a random offset. */
export function writeComment(out: Utf8Column, rng: Rng, pool: Uint8Array, minLength: number, maxLength: number): void {
  const length = rng.int(minLength, maxLength);
  out.copy(pool, rng.int(0, TEXT_POOL_SIZE - length), length);
}

/** Appends `length` bytes of pool text from a random offset. */
export function writePoolText(out: Utf8Column, rng: Rng, pool: Uint8Array, length: number): void {
  out.copy(pool, rng.int(0, TEXT_POOL_SIZE - length), length);
}

/** The 64 symbols random v-strings are made of. */
const VSTRING_SYMBOLS = new TextEncoder().encode(
  '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ,.',
);

/** Appends a random v-string (spec 4.2.2.7) of a uniform length in [10, 40]: an address. */
export function writeAddress(out: Utf8Column, rng: Rng): void {
  const length = rng.int(10, 40);
  const bytes = out.bytes;
  let pos = out.pos;
  for (let i = 0; i < length; i++) bytes[pos++] = VSTRING_SYMBOLS[rng.next() >>> 26]!;
  out.pos = pos;
}

/** Appends a phone number 'CC-NNN-NNN-NNNN' whose country code is nationkey + 10 (spec 4.2.2.9). */
export function writePhone(out: Utf8Column, rng: Rng, nationkey: number): void {
  out.digits(nationkey + 10, 2);
  out.byte(45);
  out.digits(rng.int(100, 999), 3);
  out.byte(45);
  out.digits(rng.int(100, 999), 3);
  out.byte(45);
  out.digits(rng.int(1000, 9999), 4);
}

/** Appends `prefix` then `key` zero-padded to 9 digits ('Supplier#000000001'). */
export function writeKeyName(out: Utf8Column, prefix: Uint8Array, key: number): void {
  out.copy(prefix, 0, prefix.length);
  out.digits(key, 9);
}
