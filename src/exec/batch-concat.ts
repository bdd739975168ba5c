/**
 * Concatenation of columns and batches (canonical physical data, see
 * batch.ts), written once as a stepped generator: `concatDataSteps` yields
 * after about every `step` rows copied, so a hash join's build phase
 * (operators/hash-join-build.ts) copies a build side of millions of rows in
 * bounded pieces (operator.ts "Bounded steps"); `concatData` runs the same
 * generator to its end in one call.
 *
 * Decision: one implementation for both uses. The join's stepped copy used to
 * repeat the Utf8 and fixed-width loops of concatData (and fell back to it for
 * the other types); now every type is copied part by part with the same loop,
 * and the one-call form is the generator driven without a step limit.
 *
 * Dictionary columns with different dictionaries are merged into one
 * deduplicated dictionary; a column mixing Dictionary and Utf8 parts is
 * decoded; Null parts next to typed parts become all-NULL typed parts.
 */
import { Type, makeVector, type Data, type DataType, type Dictionary, type Null, type RecordBatch, type Utf8, type Vector } from 'apache-arrow';
import { dictionaryData, fixedData, nullTypeData, utf8Data } from './arrow-build.js';
import { InternalError } from '../relnode/errors.js';
import { batchFromColumns, isValidAt, nullData, takeData, utf8FromStrings } from './batch.js';
import { takeScratch } from './kernels/buffer-pool.js';
import { nullColumn } from './kernels/column.js';

/** The first `n` entries of a (possibly longer) pooled array. */
function exactly<T extends Int32Array>(a: T, n: number): T {
  return a.length === n ? a : a.subarray(0, n) as T;
}

/** Runs a stepped generator to its end (the one-call form). */
export function drive<T>(g: Generator<void, T, void>): T {
  for (;;) { const r = g.next(); if (r.done) return r.value; }
}

/** Concatenates columns of one type in one call. */
export function concatData(input: readonly Data[]): Data {
  return drive(concatDataSteps(input, Infinity));
}

/** Concatenates batches with the same columns into one batch (null for no batches). */
export function concatBatches(batches: readonly RecordBatch[]): RecordBatch | null {
  return drive(concatBatchesSteps(batches, Infinity));
}

/**
 * `concatBatches` in pieces: yields after about every `step` rows copied and after each column. With
 * `reads`, only the columns it marks are copied and the others become all-NULL placeholders (a hash
 * join's build side: columns nothing reads after the join; a placeholder batch per build batch instead
 * made Arrow Data, a struct and a batch per batch per query, a loop that reached TurboFan in TPC-H Q3's
 * timed runs, bench/deopt-runs.ts). A single batch is returned as it is.
 */
export function* concatBatchesSteps(batches: readonly RecordBatch[], step: number, reads?: readonly boolean[]): Generator<void, RecordBatch | null, void> {
  if (batches.length <= 1) return batches[0] ?? null;
  let n = 0;
  for (let b = 0; b < batches.length; b++) n += batches[b]!.numRows;
  const first = batches[0]!;
  const cols: Data[] = [];
  for (let c = 0; c < first.data.children.length; c++) {
    if (reads !== undefined && !reads[c]) { cols.push(nullColumn(n)); continue; }
    cols.push(yield* concatDataSteps(columnAcross(batches, c), step));
    if (step !== Infinity) yield;
  }
  return batchFromColumns(first.schema, cols, n);
}

/*
 * The per-column scans below are functions of the module, not closures made per call: a closure made per
 * query is optimized again in every query once it is hot (bench/deopt-runs.ts counted them in Q3's timed runs).
 */

/** Column `c` of every batch. */
function columnAcross(batches: readonly RecordBatch[], c: number): Data[] {
  const out: Data[] = [];
  for (let b = 0; b < batches.length; b++) out.push(batches[b]!.data.children[c]!);
  return out;
}

/** Some part has type id `t`. */
function anyOfType(parts: readonly Data[], t: Type): boolean {
  for (let i = 0; i < parts.length; i++) if (parts[i]!.typeId === t) return true;
  return false;
}

/** Some part has neither type id `a` nor `b`. */
function anyOtherThan(parts: readonly Data[], a: Type, b: Type): boolean {
  for (let i = 0; i < parts.length; i++) { const t = parts[i]!.typeId; if (t !== a && t !== b) return true; }
  return false;
}

/** `concatData` in pieces: yields after about every `step` rows copied (never for step = Infinity). */
export function* concatDataSteps(input: readonly Data[], step: number): Generator<void, Data, void> {
  let parts = input;
  if (parts.length === 0) throw new InternalError('concatData of no parts');
  if (parts.length === 1) return parts[0]!;
  // One column may mix Utf8 and Dictionary batches: decode the dictionaries.
  if (anyOfType(parts, Type.Dictionary) && anyOtherThan(parts, Type.Dictionary, Type.Null)) {
    parts = parts.map((p) => (p.typeId === Type.Dictionary ? decodeDictionary(p) : p));
  }
  if (anyOfType(parts, Type.Null) && anyOtherThan(parts, Type.Null, Type.Null)) {
    const t = parts.find((p) => p.typeId !== Type.Null)!.type as DataType;
    parts = parts.map((p) => (p.typeId === Type.Null ? nullData(t, p.length) : p));
  }
  const first = parts[0]!;
  const type = first.type as DataType;
  let n = 0;
  let nulls = 0;
  for (const p of parts) { n += p.length; nulls += p.typeId === Type.Null ? p.length : p.nullCount; }
  if (first.typeId === Type.Null) return nullTypeData(type as Null, n);
  const bitmap = nulls > 0 ? new Uint8Array((n + 7) >> 3) : undefined;
  if (first.typeId === Type.Dictionary) {
    if (bitmap !== undefined) { let at = 0; for (const p of parts) { copyValidity(p, bitmap, at); at += p.length; } }
    return concatDictionary(parts, n, nulls, bitmap);
  }
  // Every other type: part by part (values and validity), a yield after about `step` rows.
  let sinceYield = 0;
  let at = 0;
  switch (first.typeId) {
    case Type.Bool: {
      const out = new Uint8Array((n + 7) >> 3);
      for (const p of parts) {
        const src = p.values as Uint8Array;
        for (let i = 0; i < p.length; i++) {
          const b = p.offset + i;
          if ((src[b >> 3]! >> (b & 7)) & 1) { const o = at + i; out[o >> 3]! |= 1 << (o & 7); }
        }
        if (bitmap !== undefined) copyValidity(p, bitmap, at);
        at += p.length;
        if ((sinceYield += p.length) >= step) { sinceYield = 0; yield; }
      }
      return fixedData(type, n, nulls, bitmap, out);
    }
    case Type.Utf8: {
      let total = 0;
      for (const p of parts) total += p.valueOffsets[p.length]! - p.valueOffsets[0]!;
      const offs = new Int32Array(n + 1);
      const bytes = new Uint8Array(total);
      let pos = 0;
      for (const p of parts) {
        const po = p.valueOffsets as Int32Array;
        const s = po[0]!;
        const e = po[p.length]!;
        bytes.set((p.values as Uint8Array).subarray(s, e), pos);
        for (let i = 1; i <= p.length; i++) offs[at + i] = po[i]! - s + pos;
        if (bitmap !== undefined) copyValidity(p, bitmap, at);
        at += p.length;
        pos += e - s;
        if ((sinceYield += p.length) >= step) { sinceYield = 0; yield; }
      }
      return utf8Data(type as Utf8, n, nulls, bitmap, offs, bytes);
    }
    default: {
      if (first.children.length > 0 || !ArrayBuffer.isView(first.values)) throw new InternalError(`concatData: unsupported Arrow type ${String(type)}`);
      const stride = first.stride;
      const Ctor = (first.values as Int32Array).constructor as new (n: number) => Int32Array;
      // INTEGER/DATE and DOUBLE values come from the thread's scratch pool (every entry is written below):
      // a hash join gives its build columns back there when its run ends (operators/hash-join.ts).
      const out = Ctor === Int32Array || (Ctor as unknown) === Float64Array ? exactly(takeScratch(Ctor as typeof Int32Array, n * stride), n * stride) : new Ctor(n * stride);
      for (const p of parts) {
        out.set((p.values as Int32Array).subarray(0, p.length * stride), at * stride);
        if (bitmap !== undefined) copyValidity(p, bitmap, at);
        at += p.length;
        if ((sinceYield += p.length) >= step) { sinceYield = 0; yield; }
      }
      return fixedData(type, n, nulls, bitmap, out);
    }
  }
}

/** The single Utf8 Data of a dictionary column's dictionary (chunks are concatenated). */
export function dictionaryValues(data: Data): Data<Utf8> {
  const v = data.dictionary as Vector<Utf8> | undefined;
  if (!v) throw new InternalError('dictionary column without a dictionary');
  return dictionaryStrings(v);
}

/** A dictionary Vector's strings as one Data (see dictionaryValues). */
export function dictionaryStrings(v: Vector): Data<Utf8> {
  if (v.data.length === 1) return v.data[0]! as Data<Utf8>;
  // A dictionary in several chunks (a join's build-side strings, one chunk per build part) is
  // concatenated once per dictionary object, not once per call: every batch of a join's output
  // shares the one dictionary, and a per-batch reader (an aggregate state) asked for it per batch.
  let whole = concatenated.get(v);
  if (whole === undefined) { whole = concatData(v.data) as Data<Utf8>; concatenated.set(v, whole); }
  return whole;
}

/** Multi-chunk dictionaries concatenated (dictionaryValues), per dictionary Vector. */
const concatenated = new WeakMap<object, Data<Utf8>>();

/** A Dictionary<Utf8> column as a plain Utf8 column. */
export function decodeDictionary(d: Data): Data<Utf8> {
  const codes = d.values as Int32Array;
  const sel = new Int32Array(d.length);
  const masked = d.nullCount > 0;
  for (let i = 0; i < d.length; i++) sel[i] = masked && !isValidAt(d, i) ? -1 : codes[i]!;
  return takeData(dictionaryValues(d), sel) as Data<Utf8>;
}

/** Sets the validity bits of part `p` at row `at` of `dst` (an all-NULL part sets none). */
function copyValidity(p: Data, dst: Uint8Array, at: number): void {
  const nullCount = p.typeId === Type.Null ? p.length : p.nullCount;
  const bm = p.nullBitmap;
  if (nullCount === p.length && (!bm || bm.length === 0 || p.typeId === Type.Null)) return;
  if (nullCount === 0 || !bm || bm.length === 0) {
    for (let i = 0; i < p.length; i++) { const o = at + i; dst[o >> 3]! |= 1 << (o & 7); }
    return;
  }
  for (let i = 0; i < p.length; i++) {
    const b = p.offset + i;
    if ((bm[b >> 3]! >> (b & 7)) & 1) { const o = at + i; dst[o >> 3]! |= 1 << (o & 7); }
  }
}

const DECODER = new TextDecoder();

function concatDictionary(parts: readonly Data[], n: number, nulls: number, bitmap: Uint8Array | undefined): Data {
  const first = parts[0]!;
  const codes = new Int32Array(n);
  const sameDict = parts.every((p) => p.dictionary === first.dictionary);
  let at = 0;
  if (sameDict) {
    for (const p of parts) { codes.set((p.values as Int32Array).subarray(0, p.length), at); at += p.length; }
    return dictionaryData(first.type as Dictionary, n, nulls, bitmap, codes, first.dictionary!);
  }
  // Different dictionaries: one merged dictionary, each distinct string once; codes remapped.
  const { dictionary, remaps } = mergeDictionaries(parts);
  for (const p of parts) { remapCodes(p, remaps.get(p.dictionary)!, codes, at); at += p.length; }
  return dictionaryData(first.type as Dictionary, n, nulls, bitmap, codes, dictionary);
}

/**
 * One dictionary holding each distinct string of the parts' dictionaries once (first-seen order),
 * and per source dictionary the table from its codes to the merged ones. Computed once per
 * dictionary object (many parts usually share a few: the batches of one worker's reply, of one
 * file, ...), not once per part.
 */
export function mergeDictionaries(parts: readonly Data[]): { dictionary: Vector; remaps: Map<Vector | undefined, Int32Array> } {
  const index = new Map<string, number>();
  const strings: string[] = [];
  const remaps = new Map<Vector | undefined, Int32Array>();
  for (const p of parts) {
    if (remaps.has(p.dictionary)) continue;
    const dict = dictionaryValues(p);
    const remap = new Int32Array(dict.length);
    const offs = dict.valueOffsets;
    const bytes = dict.values;
    for (let k = 0; k < dict.length; k++) {
      const s = DECODER.decode(bytes.subarray(offs[k]!, offs[k + 1]!));
      let c = index.get(s);
      if (c === undefined) { c = strings.length; strings.push(s); index.set(s, c); }
      remap[k] = c;
    }
    remaps.set(p.dictionary, remap);
  }
  return { dictionary: makeVector(utf8FromStrings(strings)), remaps };
}

/** Writes part `p`'s codes through `remap` to out[at ..]; a NULL row's code may be anything, so one out of range becomes 0. */
export function remapCodes(p: Data, remap: Int32Array, out: Int32Array, at: number): void {
  const src = p.values as Int32Array;
  const size = remap.length;
  for (let i = 0; i < p.length; i++) {
    const code = src[i]!;
    out[at + i] = code >= 0 && code < size ? remap[code]! : 0;
  }
}
