/**
 * Cheap construction of Arrow `Data` and `RecordBatch`es for the per-batch paths (every operator's
 * output, every scan's projection, every worker reply).
 *
 * Why not apache-arrow's own factories: `makeData(props)` dispatches through `MakeDataVisitor`
 * (`getVisitFn` → `inferDType` → `getVisitFnByTypeId` → `visitInt`/`visitFloat`/..., each
 * destructuring a props object and re-wrapping every Uint8Array), and `new RecordBatch(schema, data)`
 * always runs `ensureSameLengthData` (spreads the fields and children, `schema.assign` → a new Schema
 * and dictionary map, a new Struct type and a second makeData). Called a few times per batch, these big
 * polymorphic functions reach TurboFan late and inline a lot: in TPC-H Q3 at parallelism 2 their
 * compiles (10–50 ms each, on V8's helper threads) took about half of the JIT tail's CPU per timed run
 * (docs/multi-core.md "Where p2's time goes"). Here a column is one call of the Data constructor, and a
 * batch is assembled from a Schema and Struct type made once per output shape.
 *
 * Why this is safe (apache-arrow is pinned at 21.2.0; test/exec/arrow-build.test.ts fails if a new
 * version changes what these rely on):
 * - Data: one call of apache-arrow's public constructor `new Data(type, offset, length, nullCount,
 *   [valueOffsets, values, nullBitmap], children, dictionary)` with the buffers makeData would pass:
 *   the validity is an empty Uint8Array when there is none (none at all for the Null type), the values
 *   are the type's ArrayType (another view is reinterpreted, as makeData does). The constructor sets
 *   a field only for a buffer that is there, so a built column has the same fields in the same order
 *   as makeData's (and a slice's): one V8 map per kind of column wherever it was made, and the
 *   readers of `data.values` / `data.nullBitmap` downstream see no new shapes.
 * - RecordBatch: an object of RecordBatch's prototype with exactly the fields its constructor sets
 *   (`schema`, `data`, `_metadata`; `_dictionaries` is computed lazily by the getter). The
 *   constructor's `ensureSameLengthData` only pads columns shorter than the batch; `batchOf` checks
 *   the lengths and takes the constructor when one differs. The batch's schema is the shape's (the
 *   constructor would return an equal copy of it).
 * - Null placeholders (`nullPlaceholder`): the last one is handed out again for the same type and
 *   length. A Null column has no buffers and Data is immutable once made (DESIGN.md "Data model").
 * The children array of a struct is a PACKED copy (as packed.ts's) so every reader of `data.children`
 * sees one elements kind.
 */
import { Data, RecordBatch, Schema, Struct, type DataType, type Dictionary, type Null, type Utf8, type Vector } from 'apache-arrow';
import { InternalError } from '../relnode/errors.js';

/** The validity buffer of a column with no bitmap: empty, as makeData leaves it (zero bytes: nothing can write into or transfer it). */
export const NO_BITMAP: Uint8Array = new Uint8Array(0);

function build<T extends DataType>(
  type: T, offset: number, length: number, nullCount: number, nullBitmap: Uint8Array | undefined,
  values: ArrayBufferView | undefined, valueOffsets: Int32Array | undefined, children: Data[], dictionary: Vector | undefined,
): Data<T> {
  // The buffer slots of apache-arrow 21's Data constructor: [valueOffsets, values, nullBitmap, typeIds]; it sets a field
  // only for a truthy slot, so the buffers a type has decide the object's fields (and V8 map), as with makeData.
  return new Data<T>(type, offset, length, nullCount, [valueOffsets, values, nullBitmap] as never, children, dictionary);
}

/** `v` as a `Ctor` view of the same bytes (what makeData's toArrayBufferView does); cold. */
function asView(Ctor: new (buffer: ArrayBufferLike, byteOffset: number, length: number) => ArrayBufferView, v: ArrayBufferView): ArrayBufferView {
  if (!ArrayBuffer.isView(v)) throw new InternalError(`arrow-build: column values must be a typed array`);
  const bpe = (Ctor as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
  return new Ctor(v.buffer, v.byteOffset, v.byteLength / bpe);
}

function bitmapOf(nullBitmap: Uint8Array | null | undefined): Uint8Array {
  if (nullBitmap === null || nullBitmap === undefined) return NO_BITMAP;
  // A Node Buffer is a Uint8Array whose slice() shares memory: makeData stores a plain view of it.
  return nullBitmap.constructor === Uint8Array ? nullBitmap : asView(Uint8Array, nullBitmap) as Uint8Array;
}

/**
 * A fixed-width column: Int*, Float*, Date*, Timestamp*, Decimal, or Bool (`values` are then the bits,
 * indexed at `offset + i` like the validity). `values` should be the type's ArrayType; another view is
 * reinterpreted. No bitmap (null/undefined) means no NULLs.
 */
export function fixedData<T extends DataType>(
  type: T, length: number, nullCount: number, nullBitmap: Uint8Array | null | undefined, values: ArrayBufferView, offset = 0,
): Data<T> {
  const Ctor = (type as unknown as { ArrayType: new (b: ArrayBufferLike, o: number, n: number) => ArrayBufferView }).ArrayType;
  const v = values.constructor === Ctor ? values : asView(Ctor, values);
  return build(type, offset, length, nullCount, bitmapOf(nullBitmap), v, undefined, [], undefined);
}

/** A Utf8 column: `valueOffsets` has length + 1 entries (from `offset`), `bytes` the UTF-8 data. */
export function utf8Data(
  type: Utf8, length: number, nullCount: number, nullBitmap: Uint8Array | null | undefined, valueOffsets: Int32Array, bytes: Uint8Array, offset = 0,
): Data<Utf8> {
  const offs = valueOffsets.constructor === Int32Array ? valueOffsets : asView(Int32Array, valueOffsets) as Int32Array;
  const b = bytes.constructor === Uint8Array ? bytes : asView(Uint8Array, bytes);
  return build(type, offset, length, nullCount, bitmapOf(nullBitmap), b, offs, [], undefined);
}

/** A dictionary-encoded column: `codes` of the type's index type, over `dictionary`. */
export function dictionaryData<T extends Dictionary>(
  type: T, length: number, nullCount: number, nullBitmap: Uint8Array | null | undefined, codes: ArrayBufferView, dictionary: Vector, offset = 0,
): Data<T> {
  const Ctor = type.indices.ArrayType as unknown as new (b: ArrayBufferLike, o: number, n: number) => ArrayBufferView;
  const c = codes.constructor === Ctor ? codes : asView(Ctor, codes);
  return build(type, offset, length, nullCount, bitmapOf(nullBitmap), c, undefined, [], dictionary);
}

/** A column of the Null type (every row NULL; no buffers, as makeData makes it). */
export function nullTypeData(type: Null, length: number): Data<Null> {
  return build(type, 0, length, length, undefined, undefined, undefined, [], undefined);
}

/** The last placeholder made (see nullPlaceholder). */
let lastPlaceholder: Data<Null> | undefined;

/**
 * An all-NULL column of the Null type standing in for a column nobody reads (join sides, filters,
 * guarded evaluation make one per unused column per batch). The last one made is returned again
 * when `type` and `length` match: Data is immutable, a Null column has no buffers, and batches of
 * one length follow each other, so most placeholders are one object instead of one per column per
 * batch.
 */
export function nullPlaceholder(type: Null, length: number): Data<Null> {
  const last = lastPlaceholder;
  if (last !== undefined && last.length === length && last.type === type) return last;
  return (lastPlaceholder = nullTypeData(type, length));
}

/**
 * A Struct column without NULLs over a PACKED copy of `children` (each of `length` rows: not checked here).
 * The copy loop is structData's own, not packedCopy's: V8 counts a function's own bytecodes, loops
 * included, toward its tier-up, so this per-batch function reaches TurboFan after fewer batches.
 */
export function structData(type: Struct, length: number, children: readonly Data[]): Data<Struct> {
  const kids: Data[] = [];
  for (let i = 0; i < children.length; i++) kids.push(children[i]!);
  return build(type, 0, length, 0, NO_BITMAP, undefined, undefined, kids, undefined);
}

/** A RecordBatch of `schema` over a struct Data whose children all have the struct's length (no checks, no copies). */
export function assembleBatch(schema: Schema, data: Data<Struct>): RecordBatch {
  const b = Object.create(RecordBatch.prototype) as { schema: Schema; data: Data<Struct>; _metadata: Map<string, string> };
  b.schema = schema;
  b.data = data;
  b._metadata = new Map();
  return b as unknown as RecordBatch;
}

/** The Struct type of each schema a batch was built with: one per output shape. */
const structs = new WeakMap<Schema, Struct>();

/** The Struct type over `schema`'s fields, made once per Schema object. */
export function structOf(schema: Schema): Struct {
  let s = structs.get(schema);
  if (s === undefined) {
    s = new Struct(schema.fields);
    structs.set(schema, s);
  }
  return s;
}

/**
 * A RecordBatch of `schema` (reused as the batch's schema: build it once per output shape) over
 * `columns` of `length` rows each. A column of another length takes Arrow's constructor, which pads
 * it with NULLs.
 */
export function batchOf(schema: Schema, columns: readonly Data[], length: number): RecordBatch {
  for (let i = 0; i < columns.length; i++) {
    if (columns[i]!.length !== length) return new RecordBatch(schema, structData(structOf(schema), length, columns));
  }
  return assembleBatch(schema, structData(structOf(schema), length, columns));
}
