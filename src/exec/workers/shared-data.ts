/**
 * Arrow columns in shared memory: a copy of a column whose buffers are SharedArrayBuffers,
 * which every worker thread reads in place (wire.ts sends such buffers as they are).
 *
 * Decision: the copy is an Arrow Data of the *same type object* over the same offsets, so a
 * table can put it in place of the original (io/memory.ts `StoredBatches.adopt`) and keep one copy of
 * its data instead of two: the bytes are identical, so every answer is. A column whose buffers
 * are all shared already is returned as it is (no copy). A dictionary column's copy reads one
 * shared dictionary per original dictionary (a WeakMap keyed by the original), so the batches
 * of a column — and the columns and tables that shared one dictionary object — still share one
 * after the copy (kernels cache per dictionary object; joins and concatenations keep codes
 * when two sides hold the same dictionary).
 */
import * as arrow from 'apache-arrow';

type Buf = Uint8Array | Int32Array | BigInt64Array | Float64Array;

/** Bytes `toShared` has copied into shared memory in this thread (tests: a table built in shared memory ships without a copy). */
let copiedBytes = 0;

/** Bytes copied into shared memory so far by `toShared` / `shareData` in this thread. */
export function sharedCopyBytes(): number {
  return copiedBytes;
}

/** Shared bytes allocated and not yet reported to V8 (`newSharedBuffer`). */
let unreported = 0;
/** Report shared allocations to V8 in steps of this many bytes. */
const REPORT_STEP = 32 << 20;

/**
 * A new SharedArrayBuffer of `bytes`, reported to V8: once per REPORT_STEP of shared bytes
 * allocated, an ordinary ArrayBuffer of twice that size is allocated and dropped.
 *
 * Why: V8 does not count SharedArrayBuffers in an isolate's external memory, so neither building
 * tables in them nor copying tables into them ever prompted a garbage collection, and what was
 * dropped meanwhile was not freed. Copying lineitem at SF 1 (the first shipped Q1 at parallelism
 * 2) peaked at +605 MB over the loaded tables, originals and copies both alive, without it and
 * +36 MB with it (bench/suite/memory.ts); registerTpch SF 0.1 replaced six times at parallelism 2
 * grew by ~100 MB per round, all kept, without it and stayed at p1's 198 MB with it
 * (bench/shared-drop.ts). An ordinary buffer is counted, so V8 collects as it would for the same
 * bytes in ordinary buffers. It is never touched: the allocator maps zero pages, which costs no
 * resident memory.
 */
export function newSharedBuffer(bytes: number): SharedArrayBuffer {
  unreported += bytes;
  if (unreported >= REPORT_STEP) {
    const n = unreported;
    unreported = 0;
    try {
      void new ArrayBuffer(2 * n);
    } catch {
      // No address space for it (a capped process): what was dropped goes at a later collection.
    }
  }
  return new SharedArrayBuffer(bytes);
}

/** A copy of `b` in a SharedArrayBuffer (or `b` itself when it is already shared). */
export function toShared<B extends Buf>(b: B): B {
  if (b.buffer instanceof SharedArrayBuffer) return b;
  copiedBytes += b.byteLength;
  const Ctor = b.constructor as { new(buf: SharedArrayBuffer, offset: number, length: number): B };
  const out = new Ctor(newSharedBuffer(b.byteLength), 0, b.length);
  (out as unknown as { set(x: B): void }).set(b);
  return out;
}

/** Whether a typed array is missing, empty or in shared memory. */
function isShared(b: ArrayBufferView | null | undefined): boolean {
  return b == null || b.byteLength === 0 || b.buffer instanceof SharedArrayBuffer;
}

/** Whether every buffer of `d` (and of its dictionary) is in shared memory already. */
export function isSharedData(d: arrow.Data): boolean {
  return isShared(d.values) && isShared(d.valueOffsets) && isShared(d.nullBitmap)
    && (d.dictionary === undefined || d.dictionary.data.every(isSharedData));
}

/** The shared copy of each dictionary that was copied, by the original (weakly: it goes with the original). */
const sharedDictionaries = new WeakMap<arrow.Vector, arrow.Vector>();

/**
 * The dictionary `v` in shared memory: `v` itself when it is there already, else its shared copy,
 * made once per original (a loader building columns in shared memory refers to it, so its
 * batches share one dictionary object, as the original's did).
 */
export function sharedDictionary<T extends arrow.DataType>(v: arrow.Vector<T>): arrow.Vector<T> {
  if (v.data.every(isSharedData)) return v;
  let sd = sharedDictionaries.get(v);
  if (sd === undefined) {
    sd = arrow.makeVector(v.data.map((x) => shareData(x)));
    sharedDictionaries.set(v, sd);
  }
  return sd as arrow.Vector<T>;
}

/**
 * `d` with its buffers in SharedArrayBuffers: `d` itself when they are already, else a new Data
 * of the same type, offset, length and null count over shared copies of its values, offsets,
 * validity bitmap and dictionary. Columns with child columns (structs, lists) are refused: eddy's
 * table columns have none (io/canonical.ts).
 */
export function shareData<T extends arrow.DataType>(d: arrow.Data<T>): arrow.Data<T> {
  if (d.children.length > 0) throw new Error(`internal error: a ${String(d.type)} column cannot be put in shared memory`);
  if (isSharedData(d)) return d;
  const dictionary = d.dictionary === undefined ? undefined : sharedDictionary(d.dictionary);
  const buf = <B extends Buf>(b: B | null | undefined): B | undefined => (b == null ? undefined : toShared(b));
  // Arrow's buffer slots: [offsets, values, validity, type ids]; the type ids (unions) are never set here.
  const buffers = [buf(d.valueOffsets as Int32Array | undefined), buf(d.values as Buf | undefined), buf(d.nullBitmap), undefined];
  return new arrow.Data(d.type, d.offset, d.length, d.nullCount, buffers as unknown as arrow.Data<T>['buffers'], [], dictionary);
}

/** The ArrayBuffers under a column's own buffers (its dictionary's are left out: one per column, shared by its batches). */
function buffersOf(d: arrow.Data): ArrayBufferLike[] {
  const out: ArrayBufferLike[] = [];
  for (const b of [d.values, d.valueOffsets, d.nullBitmap] as (ArrayBufferView | null | undefined)[]) if (b != null && b.byteLength > 0) out.push(b.buffer);
  return out;
}

/**
 * `columns` of `batch` plus every other column of it whose buffers lie in an ArrayBuffer that one of
 * those columns' buffers lies in (repeated until none is added), in column order.
 *
 * Why: a record batch read from an Arrow IPC file holds most of its columns as views into one body
 * buffer. Copying only some of them into shared memory frees nothing: the body lives while any view
 * of it does. Copying all the columns that view it lets the body go.
 */
export function coResidentColumns(batch: arrow.RecordBatch, columns: Iterable<number>): number[] {
  const children = batch.data.children;
  const chosen = new Set<number>(columns);
  const buffers = new Set<ArrayBufferLike>();
  for (const c of chosen) for (const b of buffersOf(children[c]!)) if (!(b instanceof SharedArrayBuffer)) buffers.add(b);
  for (let added = true; added;) {
    added = false;
    children.forEach((d, c) => {
      if (chosen.has(c)) return;
      const own = buffersOf(d);
      if (!own.some((b) => buffers.has(b))) return;
      chosen.add(c);
      for (const b of own) if (!(b instanceof SharedArrayBuffer)) buffers.add(b);
      added = true;
    });
  }
  return [...chosen].sort((a, b) => a - b);
}
