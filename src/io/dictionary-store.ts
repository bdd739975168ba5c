/**
 * The storage step of tables eddy keeps in memory (CREATE TABLE AS, INSERT, UPDATE, DELETE, COPY
 * FROM): plain VARCHAR (Utf8) columns of low cardinality are rewritten as Dictionary<Utf8, Int32>,
 * with ONE dictionary per column shared by all the stored batches.
 *
 * Why: tables from eddy's TPC-H generator, Arrow IPC and Parquet files keep their dictionary columns,
 * and GROUP BY, joins and filters then work on int32 codes (one dictionary object per column lets the
 * kernels intern or test each distinct string once per query: hash-dictionary-ids.ts, like.ts). A table
 * stored from CSV, JSON or any query held plain strings, so the same query over it hashed and compared
 * bytes per row. DuckDB dictionary-compresses such columns in its own storage; this does the same.
 * One dictionary for all batches means collect() and scans need no unification (exec/dictionary-unify.ts).
 *
 * The rule (per column, over its non-NULL values in storage order): encode while the number of
 * distinct strings stays at most `maxDistinctRatio` (1/8) of max(rows seen, sample), where the sample
 * is the first `sampleRows` (65,536) non-NULL values (or all of them when fewer). So the first 64K
 * values decide (a column with more than 8K distinct strings among them stays plain, and gives up as
 * soon as the 8,193rd appears: a unique column such as a comment costs ~8K hash inserts, not a pass),
 * and a column that turns high-cardinality later gives up as soon as its distinct count passes an
 * eighth of the values seen. Giving up leaves the whole column plain (no mixed encodings).
 * Why an eighth: a query over a dictionary column does some work per dictionary entry (interning it
 * for a hash key, testing it against a LIKE pattern, ranking it for ORDER BY) and then a cheap step
 * per row; with ≤ N/8 entries that per-entry work is at most an eighth of the per-row string work it
 * replaces, and each string's bytes are stored once per 8+ rows. The dictionary never holds more
 * bytes than the plain column would. A column whose values are all NULL stays plain.
 *
 * How: on bytes, never a JS string per row. Each value's UTF-8 bytes (offsets + data buffer) are
 * interned by the engine's StringInterner (exec/kernels/hash-interner.ts: MurmurHash3 and an
 * open-addressing table, ids in first-seen order), whose id is the row's code; the interner's arena
 * and offsets become the dictionary; strings of at most 8 bytes ask GROUP BY's packed short-string
 * cache first (hash-short-strings.ts). Already-encoded input (a Dictionary part: a query result over a
 * Parquet file, an INSERT of rows from another encoded table) interns each of its dictionary's
 * entries once and remaps its codes. NULL rows keep their validity bit (code 0).
 * Cost: ~20-80 ns per row of an encoded column (random probes of the interner's table dominate):
 * TPC-H SF 1 lineitem + orders from CSV, 7 columns encoded, ~1.2 s CPU on ~9.4 s of CREATE TABLE AS
 * (`npm run bench:dictionary-store`). The statements run it in steps of one batch's column (batch-concat's
 * stepped-generator pattern), serving the event loop between them, so a cancel stops it (the table is then
 * unchanged); `encodeForStorage` / `encodeAppended` run the same steps in one call.
 *
 * Appended rows (`encodeAppended`, INSERT and COPY FROM): when the table's column is stored over one
 * dictionary, the interner starts from that dictionary's entries in their order, so the old codes stay
 * valid in the extended dictionary: the old batches are re-pointed to it (new batch objects over the
 * same code buffers; no row of them is rewritten or changed) and the table keeps one dictionary. If
 * the extension breaks the rule, the new rows are stored as the query gave them (plain strings, or a
 * dictionary of their own): the column then mixes encodings or dictionaries, which the engine reads
 * (a Parquet file's row groups differ so too; collect() unifies or decodes them). A column stored
 * plain (or mixed) encodes the new rows by the rule on their own, with a dictionary of their own.
 */
import * as arrow from 'apache-arrow';
import { dictionaryData, utf8Data } from '../exec/arrow-build.js';
import { dictionaryValues, drive } from '../exec/batch-concat.js';
import { StringInterner } from '../exec/kernels/hash-interner.js';
import { ShortStringIds } from '../exec/kernels/hash-short-strings.js';
import { CancelledError } from '../relnode/errors.js';
import { sliceData } from './canonical.js';
import { makeBatch } from './columns.js';
import { HEAP_MEMORY, type ColumnMemory } from './column-memory.js';

/** How `encodeForStorage` and `encodeAppended` decide (see the header). */
export interface DictionaryStoreOptions {
  /** Non-NULL values of a column that decide before the running rule applies. Default 65,536. */
  readonly sampleRows?: number;
  /** Most distinct strings per non-NULL value seen for a column to stay encoded. Default 1/8. */
  readonly maxDistinctRatio?: number;
  /** Where the codes and the dictionary go (shared memory when worker threads read the table). Default heap. */
  readonly memory?: ColumnMemory;
}

/** Default of `DictionaryStoreOptions.sampleRows`. */
export const DICTIONARY_SAMPLE_ROWS = 65536;
/** Default of `DictionaryStoreOptions.maxDistinctRatio`. */
export const DICTIONARY_MAX_DISTINCT_RATIO = 1 / 8;

interface Rule { readonly sample: number; readonly ratio: number; readonly memory: ColumnMemory }

function ruleOf(o: DictionaryStoreOptions | undefined): Rule {
  return { sample: o?.sampleRows ?? DICTIONARY_SAMPLE_ROWS, ratio: o?.maxDistinctRatio ?? DICTIONARY_MAX_DISTINCT_RATIO, memory: o?.memory ?? HEAP_MEMORY };
}

/** An encoded column: one code buffer per part, over one dictionary. */
interface Encoded { readonly codes: Int32Array[]; readonly dictionary: arrow.Vector<arrow.Utf8> }

/**
 * The batches of a table about to be stored, each plain VARCHAR column that passes the rule rewritten
 * as Dictionary<Utf8, Int32> over one dictionary shared by all the batches. Other columns (dictionary
 * columns included) are kept as they are; the input array is returned when nothing changes.
 */
export function encodeForStorage(batches: readonly arrow.RecordBatch[], options?: DictionaryStoreOptions): readonly arrow.RecordBatch[] {
  return drive(encodeForStorageSteps(batches, options));
}

/** `encodeForStorage` in steps of one batch's column, the event loop served and `signal` checked between them. */
export function encodeForStorageAsync(batches: readonly arrow.RecordBatch[], options: DictionaryStoreOptions | undefined, signal: AbortSignal | undefined): Promise<readonly arrow.RecordBatch[]> {
  return driveAsync(encodeForStorageSteps(batches, options), signal);
}

function* encodeForStorageSteps(batches: readonly arrow.RecordBatch[], options: DictionaryStoreOptions | undefined): Generator<void, readonly arrow.RecordBatch[], void> {
  const first = batches[0];
  if (first === undefined) return batches;
  const rule = ruleOf(options);
  const replaced = new Map<number, { type: arrow.Dictionary<arrow.Utf8, arrow.Int32>; parts: arrow.Data[] }>();
  for (let c = 0; c < first.numCols; c++) {
    const parts = columnOf(batches, c);
    if (!parts.some((p) => p.typeId === arrow.Type.Utf8) || !parts.every(isVarchar)) continue;
    const enc = yield* encodeParts(parts, undefined, rule);
    if (enc === null) continue;
    const type = new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32());
    replaced.set(c, { type, parts: parts.map((p, k) => codesData(type, p, enc.codes[k]!, enc.dictionary)) });
  }
  if (replaced.size === 0) return batches;
  return rebuild(batches, replaced);
}

/** `encodeForStorageAsync` of an Arrow table's batches, as a table (the same table when nothing is encoded). */
export async function encodeTableForStorage(table: arrow.Table, options: DictionaryStoreOptions | undefined, signal: AbortSignal | undefined): Promise<arrow.Table> {
  const batches = await encodeForStorageAsync(table.batches, options, signal);
  return batches === table.batches ? table : new arrow.Table(batches[0]!.schema, batches as arrow.RecordBatch[]);
}

/**
 * Rows appended to a stored table (`old`, its batches as stored; `added`, the new ones), encoded as the
 * header says: returns the old batches (re-pointed to extended dictionaries where a column's dictionary
 * grew, else the same objects) and the new batches.
 */
export function encodeAppended(old: readonly arrow.RecordBatch[], added: readonly arrow.RecordBatch[], options?: DictionaryStoreOptions): Appended {
  return drive(encodeAppendedSteps(old, added, options));
}

/** `encodeAppended` in steps of one batch's column, the event loop served and `signal` checked between them. */
export function encodeAppendedAsync(old: readonly arrow.RecordBatch[], added: readonly arrow.RecordBatch[], options: DictionaryStoreOptions | undefined, signal: AbortSignal | undefined): Promise<Appended> {
  return driveAsync(encodeAppendedSteps(old, added, options), signal);
}

/** What `encodeAppended` returns: the stored batches (re-pointed where a dictionary grew) and the new ones. */
export interface Appended { readonly old: readonly arrow.RecordBatch[]; readonly added: readonly arrow.RecordBatch[] }

function* encodeAppendedSteps(old: readonly arrow.RecordBatch[], added: readonly arrow.RecordBatch[], options: DictionaryStoreOptions | undefined): Generator<void, Appended, void> {
  const first = added[0];
  if (first === undefined) return { old, added };
  if (old.length === 0) return { old, added: yield* encodeForStorageSteps(added, options) };
  const rule = ruleOf(options);
  const oldCols = new Map<number, { type: arrow.Dictionary<arrow.Utf8, arrow.Int32>; parts: arrow.Data[] }>();
  const newCols = new Map<number, { type: arrow.Dictionary<arrow.Utf8, arrow.Int32>; parts: arrow.Data[] }>();
  for (let c = 0; c < first.numCols; c++) {
    const parts = columnOf(added, c);
    if (!parts.every(isVarchar)) continue;
    const before = columnOf(old, c);
    const seed = oneDictionary(before);
    if (seed !== undefined) {
      const enc = yield* encodeParts(parts, { values: dictionaryValues(before[0]!), rows: nonNullRows(before) }, rule);
      if (enc === null) continue; // the new rows stay as they are (plain, or their own dictionary)
      const type = before[0]!.type as arrow.Dictionary<arrow.Utf8, arrow.Int32>;
      oldCols.set(c, { type, parts: before.map((p) => dictionaryData(type, p.length, p.nullCount, p.nullBitmap, p.values as Int32Array, enc.dictionary, p.offset)) });
      newCols.set(c, { type, parts: parts.map((p, k) => codesData(type, p, enc.codes[k]!, enc.dictionary)) });
      continue;
    }
    if (!parts.some((p) => p.typeId === arrow.Type.Utf8)) continue;
    const enc = yield* encodeParts(parts, undefined, rule);
    if (enc === null) continue;
    const type = new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32());
    newCols.set(c, { type, parts: parts.map((p, k) => codesData(type, p, enc.codes[k]!, enc.dictionary)) });
  }
  return {
    old: oldCols.size === 0 ? old : rebuild(old, oldCols),
    added: newCols.size === 0 ? added : rebuild(added, newCols),
  };
}

/** Runs a stepped generator to its end in one call. */
/** Runs a stepped generator, letting the event loop run between steps and failing once `signal` is aborted. */
async function driveAsync<T>(g: Generator<void, T, void>, signal: AbortSignal | undefined): Promise<T> {
  for (;;) {
    const r = g.next();
    if (r.done) return r.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (signal?.aborted) throw new CancelledError('statement cancelled while its rows were being stored');
  }
}

/** Column `c` of every batch. */
function columnOf(batches: readonly arrow.RecordBatch[], c: number): arrow.Data[] {
  const out: arrow.Data[] = [];
  for (const b of batches) out.push(b.data.children[c]!);
  return out;
}

/** Utf8, or Dictionary<Utf8, Int32> (io/canonical.ts: the one dictionary type of eddy's batches). */
function isVarchar(d: arrow.Data): boolean {
  if (d.typeId === arrow.Type.Utf8) return true;
  if (d.typeId !== arrow.Type.Dictionary) return false;
  const t = d.type as arrow.Dictionary;
  return t.dictionary.typeId === arrow.Type.Utf8 && t.indices.bitWidth === 32 && t.indices.isSigned;
}

/** The one dictionary of a stored column whose every batch is Dictionary<Utf8> over the same dictionary object. */
function oneDictionary(parts: readonly arrow.Data[]): arrow.Vector | undefined {
  const d = parts[0]?.dictionary;
  if (d === undefined || !parts.every((p) => isVarchar(p) && p.typeId === arrow.Type.Dictionary && p.dictionary === d)) return undefined;
  return d;
}

function nonNullRows(parts: readonly arrow.Data[]): number {
  let n = 0;
  for (const p of parts) n += p.length - p.nullCount;
  return n;
}

/**
 * The codes of `parts` (Utf8 or Dictionary<Utf8>) over one dictionary, or null when the rule says plain.
 * `seed`: a stored dictionary whose entries keep their codes (appends), and the non-NULL rows over it.
 */
function* encodeParts(parts: readonly arrow.Data[], seed: { values: arrow.Data<arrow.Utf8>; rows: number } | undefined, rule: Rule): Generator<void, Encoded | null, void> {
  const interner = new StringInterner();
  const short = new ShortStringIds();
  let seen = 0;
  if (seed !== undefined) {
    const v = seed.values;
    const offs = v.valueOffsets as Int32Array;
    interner.reserve(v.length, offs[v.length]! - offs[0]!);
    // A dictionary that repeats an entry (possible in a foreign Arrow file) cannot keep its codes.
    for (let k = 0; k < v.length; k++) if (interner.intern(v.values, offs[k]!, offs[k + 1]!, true) !== k) return null;
    seen = seed.rows;
  }
  const total = seen + nonNullRows(parts);
  if (total === 0) return null;
  const sample = Math.min(rule.sample, total);
  const ratio = rule.ratio;
  const codes: Int32Array[] = [];
  for (const part of parts) {
    const out = rule.memory.int32(part.length);
    if (part.typeId === arrow.Type.Dictionary) {
      if (!remapDictionaryPart(part, interner, out)) return null;
      seen += part.length - part.nullCount;
      if (interner.size > ratio * (seen > sample ? seen : sample)) return null;
    } else {
      seen = internUtf8Part(part.offset === 0 ? part : sliceData(part, 0, part.length), interner, short, out, seen, sample, ratio);
      if (seen < 0) return null;
    }
    codes.push(out);
    yield;
  }
  const offsets = new Int32Array(interner.size + 1);
  const bytes = new Uint8Array(interner.byteLength);
  interner.writeUtf8(offsets, bytes);
  const dictionary = rule.memory.dictionary(arrow.makeVector(utf8Data(new arrow.Utf8(), interner.size, 0, undefined, offsets, bytes)));
  return { codes, dictionary };
}

/**
 * Interns each non-NULL row of a Utf8 part (offset 0) and writes its id to `out`; returns the
 * non-NULL rows seen after it, or -1 as soon as the distinct count breaks the rule. Strings of at
 * most 8 bytes (flags, modes, priorities) are looked up in the key encoder's direct-mapped cache of
 * packed short strings first (hash-short-strings.ts): a hit skips MurmurHash3 and the probe.
 */
function internUtf8Part(part: arrow.Data, interner: StringInterner, short: ShortStringIds, out: Int32Array, seen: number, sample: number, ratio: number): number {
  const offs = part.valueOffsets as Int32Array;
  const bytes = part.values as Uint8Array;
  const n = part.length;
  const bm = part.nullCount === 0 ? undefined : part.nullBitmap!;
  for (let i = 0; i < n; i++) {
    if (bm !== undefined && ((bm[i >> 3]! >> (i & 7)) & 1) === 0) { out[i] = 0; continue; }
    const s = offs[i]!;
    const e = offs[i + 1]!;
    const len = e - s;
    seen++;
    let id = len <= 8 ? short.find(bytes, s, len) : -1;
    if (id < 0) {
      const size = interner.size;
      id = interner.intern(bytes, s, e, true);
      if (len <= 8) short.put(len, id);
      // Only an insert can break the rule (rows seen only loosen it).
      if (id === size && id + 1 > ratio * (seen > sample ? seen : sample)) return -1;
    }
    out[i] = id;
  }
  return seen;
}

/** Interns a Dictionary part's dictionary entries (once each) and writes its rows' new codes to `out`; false for a dictionary with NULL entries. */
function remapDictionaryPart(part: arrow.Data, interner: StringInterner, out: Int32Array): boolean {
  const dict = dictionaryValues(part);
  if (dict.nullCount > 0) return false;
  const offs = dict.valueOffsets as Int32Array;
  const remap = new Int32Array(dict.length);
  for (let k = 0; k < dict.length; k++) remap[k] = interner.intern(dict.values, offs[k]!, offs[k + 1]!, true);
  const src = part.values as Int32Array;
  const size = remap.length;
  // A NULL row's code may be anything: one out of range becomes 0 (its validity bit says NULL).
  for (let i = 0; i < part.length; i++) { const c = src[i]!; out[i] = c >= 0 && c < size ? remap[c]! : 0; }
  return true;
}

/** A column of `codes` over `dictionary` with the validity of `part` (offset 0: sliced bitmaps are copied). */
function codesData(type: arrow.Dictionary<arrow.Utf8, arrow.Int32>, part: arrow.Data, codes: Int32Array, dictionary: arrow.Vector<arrow.Utf8>): arrow.Data {
  const p = part.offset === 0 || part.nullCount === 0 ? part : sliceData(part, 0, part.length);
  const nulls = p.nullCount;
  return dictionaryData(type, p.length, nulls, nulls > 0 ? p.nullBitmap : undefined, codes, dictionary);
}

/** The batches with the replaced columns, under one schema whose fields have the new types. */
function rebuild(batches: readonly arrow.RecordBatch[], replaced: ReadonlyMap<number, { type: arrow.DataType; parts: readonly arrow.Data[] }>): arrow.RecordBatch[] {
  const fields = batches[0]!.schema.fields.map((f, c) => {
    const r = replaced.get(c);
    return r === undefined ? f : new arrow.Field(f.name, r.type, f.nullable, f.metadata);
  });
  const schema = new arrow.Schema(fields, batches[0]!.schema.metadata);
  return batches.map((b, k) => makeBatch(schema, b.data.children.map((d, c) => replaced.get(c)?.parts[k] ?? d), b.numRows));
}
