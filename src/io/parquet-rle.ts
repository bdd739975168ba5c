/**
 * Parquet's RLE / bit-packed hybrid encoding, decoded straight into typed arrays: the definition
 * levels of a flat OPTIONAL column (bit width 1, into bytes, counting the present values as it
 * goes) and dictionary indices (any width up to 24, into an Int32Array). hyparquet's decoder
 * writes into plain JS arrays (one boxed element store per value) and is the fallback for
 * anything else (parquet-pages.ts).
 *
 * A run header is a ULEB128 varint: low bit 1 = bit-packed, (header >> 1) groups of 8 values,
 * LSB first; low bit 0 = RLE, (header >> 1) copies of one value stored in ceil(width / 8) bytes.
 * A bit-packed run's last group may hold padding past the values wanted; it is skipped.
 */
import { ExecutionError } from '../relnode/errors.js';

/** The widest dictionary index this decoder unpacks (shift + width must fit 31 bits of a 4-byte read). */
export const MAX_INDEX_WIDTH = 24;

function corrupt(what: string): never {
  throw new ExecutionError(`parquet: ${what}; the file may be corrupt`);
}

/**
 * Decodes `n` definition levels of bit width 1 from src[pos, end) into out[0, n); returns how
 * many are 1 (present values).
 */
export function decodeLevels1(src: Uint8Array, pos: number, end: number, n: number, out: Uint8Array): number {
  let seen = 0, present = 0;
  while (seen < n) {
    if (pos >= end) corrupt('definition levels end early');
    let header = 0, shift = 0, b: number;
    do { b = src[pos++]!; header |= (b & 0x7f) << shift; shift += 7; } while (b & 0x80);
    if (header & 1) {
      const bytes = header >>> 1; // groups of 8 one-bit values: one byte each
      const take = Math.min(bytes * 8, n - seen);
      if (pos + ((take + 7) >> 3) > end) corrupt('definition levels run past the page');
      for (let i = 0; i < take; i++) {
        const v = (src[pos + (i >> 3)]! >> (i & 7)) & 1;
        out[seen + i] = v;
        present += v;
      }
      pos += bytes;
      seen += take;
    } else {
      const count = Math.min(header >>> 1, n - seen);
      const v = src[pos++]! & 1;
      out.fill(v, seen, seen + count);
      if (v) present += count;
      seen += count;
    }
  }
  return present;
}

/**
 * Decodes `n` dictionary indices of the given bit width (0..MAX_INDEX_WIDTH) from src[pos, end)
 * into out[0, n); returns the largest (so the caller checks them against the dictionary once).
 */
export function decodeIndices(src: Uint8Array, pos: number, end: number, width: number, n: number, out: Int32Array): number {
  if (width === 0) { out.fill(0, 0, n); return 0; }
  let max = 0;
  const mask = width >= 31 ? -1 : (1 << width) - 1;
  const valueBytes = (width + 7) >> 3;
  let seen = 0;
  while (seen < n) {
    if (pos >= end) corrupt('dictionary indices end early');
    let header = 0, shift = 0, b: number;
    do { b = src[pos++]!; header |= (b & 0x7f) << shift; shift += 7; } while (b & 0x80);
    if (header & 1) {
      const groups = header >>> 1;
      const take = Math.min(groups * 8, n - seen);
      const runBytes = groups * width;
      if (pos + ((take * width + 7) >> 3) > end) corrupt('dictionary indices run past the page');
      if (pos + runBytes + 3 <= src.length) {
        // Fast: a 4-byte little-endian read always holds the (shift + width <= 31) bits wanted.
        for (let i = 0; i < take; i++) {
          const bit = i * width, at = pos + (bit >> 3);
          const word = src[at]! | (src[at + 1]! << 8) | (src[at + 2]! << 16) | (src[at + 3]! << 24);
          const v = (word >>> (bit & 7)) & mask;
          out[seen + i] = v;
          if (v > max) max = v;
        }
      } else {
        for (let i = 0; i < take; i++) {
          const bit = i * width, at = pos + (bit >> 3);
          let word = 0;
          for (let k = 0; k < 4 && at + k < src.length; k++) word |= src[at + k]! << (8 * k);
          const v = (word >>> (bit & 7)) & mask;
          out[seen + i] = v;
          if (v > max) max = v;
        }
      }
      pos += runBytes;
      seen += take;
    } else {
      const count = Math.min(header >>> 1, n - seen);
      let v = 0;
      for (let k = 0; k < valueBytes; k++) v |= src[pos++]! << (8 * k);
      out.fill(v, seen, seen + count);
      if (count > 0 && v > max) max = v;
      seen += count;
    }
  }
  return max;
}
