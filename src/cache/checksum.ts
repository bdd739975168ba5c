/**
 * CRC-32 (the zlib / IEEE polynomial) of spill file contents. A spill file is
 * written once and read back maybe many times; its checksum, kept in memory
 * by the instance that wrote it, is compared on every read, so a file changed
 * on disk (a flipped bit, a truncation, another process writing over it) is a
 * lost block, never a wrong answer.
 *
 * Node ≥ 20.15 ships `zlib.crc32` (native, fast); older Node 20 releases
 * (package.json allows them) get a table-driven fallback with the same result.
 */
import * as zlib from 'node:zlib';

/** CRC-32 of `data`, continuing from `prev` (the CRC-32 of the bytes before it; 0 to start). */
type Crc32 = (data: Uint8Array, prev?: number) => number;

let table: Uint32Array | undefined;

/** The byte-at-a-time table of the reflected polynomial 0xEDB88320. */
function crcTable(): Uint32Array {
  if (table !== undefined) return table;
  table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}

/** The portable CRC-32 (exported so tests can check it against zlib's); `prev` continues an earlier run. */
export function crc32Portable(data: Uint8Array, prev = 0): number {
  const t = crcTable();
  let c = (prev ^ 0xffffffff) >>> 0;
  for (let i = 0; i < data.length; i++) c = t[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const native = (zlib as unknown as { crc32?: (d: Uint8Array, value?: number) => number }).crc32;

/** CRC-32 of the bytes (unsigned 32-bit); `crc32(b, crc32(a))` is the CRC-32 of a followed by b. */
export const crc32: Crc32 = typeof native === 'function' ? (d, prev = 0) => native(d, prev) >>> 0 : crc32Portable;
