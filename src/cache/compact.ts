/**
 * Compaction of cached batches: a slice shares its parent's buffers (Arrow
 * JS slices are views), so a cached `LIMIT 5` over a 65,536-row batch keeps
 * the whole batch alive while the budget charges only its slice (20 such
 * slices once counted 2,000 bytes and held 19.3 MB). A batch that holds much
 * more than it needs is copied into fresh, exactly sized buffers before it is
 * stored, so the memory budget measures what the cache really keeps.
 *
 * "Holds" is the sum of the distinct ArrayBuffers the batch's columns reach
 * (dictionaries excluded: they are shared by every batch of a column and are
 * not copied); "needs" is what an unsliced copy takes. A batch is copied when
 * it holds more than twice what it needs and the waste exceeds
 * COMPACT_SLACK_BYTES (so pooled small Buffers and full batches stay
 * zero-copy). Columns with child data (none of eddy's physical types) are
 * kept as they are.
 */
import { Data, RecordBatch, Type } from 'apache-arrow';
import { batchFromColumns } from '../exec/batch.js';
import { dataBytes } from '../exec/memory.js';

/** Waste below this (per batch) is not worth a copy. */
export const COMPACT_SLACK_BYTES = 64 * 1024;

type Typed = Uint8Array | Int32Array | ArrayBufferView;

function addBuffer(seen: Set<ArrayBufferLike>, a: Typed | undefined | null): void {
  if (a) seen.add(a.buffer);
}

function reach(d: Data, seen: Set<ArrayBufferLike>): void {
  addBuffer(seen, d.values as Typed | undefined);
  addBuffer(seen, d.valueOffsets as Typed | undefined);
  addBuffer(seen, d.nullBitmap);
  addBuffer(seen, d.typeIds as Typed | undefined);
  for (const c of d.children) reach(c, seen);
}

/** Bytes of the distinct ArrayBuffers a batch's columns keep alive (dictionaries excluded). */
export function retainedBytes(batches: RecordBatch | readonly RecordBatch[]): number {
  const seen = new Set<ArrayBufferLike>();
  for (const b of Array.isArray(batches) ? batches : [batches as RecordBatch]) for (const c of b.data.children) reach(c, seen);
  let n = 0;
  for (const a of seen) n += a.byteLength;
  return n;
}

const bitmapBytes = (length: number): number => (length + 7) >> 3;

/** Bytes an unsliced copy of a column takes (undefined when it is not compactable). */
function neededBytes(d: Data): number | undefined {
  return d.children.length > 0 ? undefined : dataBytes(d);
}

/** The `length` bits of `bits` starting at bit `offset`, in a fresh bitmap starting at bit 0. */
function copyBits(bits: Uint8Array, offset: number, length: number): Uint8Array {
  const out = new Uint8Array(bitmapBytes(length));
  if ((offset & 7) === 0) {
    out.set(bits.subarray(offset >> 3, (offset >> 3) + out.length));
    return out;
  }
  for (let i = 0; i < length; i++) {
    const j = offset + i;
    if (bits[j >> 3]! & (1 << (j & 7))) out[i >> 3]! |= 1 << (i & 7);
  }
  return out;
}

function compactData(d: Data): Data {
  const validity = d.nullBitmap && d.nullBitmap.byteLength > 0 ? copyBits(d.nullBitmap, d.offset, d.length) : undefined;
  const nullCount = d.nullCount;
  if (d.typeId === Type.Null) return d;
  let values: Typed | undefined;
  let offsets: Int32Array | undefined;
  const src = d.valueOffsets as Int32Array | undefined;
  if (d.typeId === Type.Bool) values = copyBits(d.values as Uint8Array, d.offset, d.length);
  else if (src) {
    const base = src[0]!;
    offsets = new Int32Array(d.length + 1);
    for (let i = 0; i <= d.length; i++) offsets[i] = src[i]! - base;
    values = (d.values as Uint8Array).slice(base, src[d.length]!);
  } else {
    const v = d.values as unknown as { slice(): Typed } | undefined;
    values = v?.slice();
  }
  const buffers: Record<number, unknown> = {};
  if (offsets) buffers[0] = offsets;
  if (values) buffers[1] = values;
  if (validity) buffers[2] = validity;
  return new Data(d.type, 0, d.length, validity ? nullCount : 0, buffers as never, [], d.dictionary);
}

/** The batch to store: `batch` itself, or a compact copy when it holds much more memory than its rows need. */
export function compactForCache(batch: RecordBatch): RecordBatch {
  const cols = batch.data.children;
  let needed = 0;
  for (const c of cols) {
    const n = neededBytes(c);
    if (n === undefined) return batch;
    needed += n;
  }
  const held = retainedBytes(batch);
  if (held <= 2 * needed || held - needed <= COMPACT_SLACK_BYTES) return batch;
  return batchFromColumns(batch.schema, cols.map(compactData), batch.numRows);
}
