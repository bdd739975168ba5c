/**
 * Adopting Arrow tables made by another copy of apache-arrow (a CommonJS
 * `require('apache-arrow')` next to our ESM import, or a library that bundles
 * its own arrow). Their Data, Vector and DataType objects are not instances of
 * our classes, so arrow's visitors read them as type `NONE` deep inside an
 * operator. Instead of trusting `instanceof`, a table is read structurally —
 * type ids and type parameters from the Arrow spec (stable across versions),
 * buffers by their property names — and rebuilt as our own DataType, Data and
 * Vector objects over the same buffers: zero-copy, nulls, offsets and
 * dictionaries kept. A column eddy cannot read fails here, naming the column
 * and its type, not when a query runs.
 */
import * as arrow from 'apache-arrow';
import { ValidationError } from '../relnode/errors.js';

/** A DataType as any apache-arrow copy has it: the spec's type id plus its parameters. */
export interface ArrowTypeLike {
  readonly typeId: number;
  readonly bitWidth?: number;
  readonly isSigned?: boolean;
  readonly precision?: number;
  readonly scale?: number;
  readonly unit?: number;
  readonly timezone?: string | null;
  readonly id?: number;
  readonly isOrdered?: boolean;
  readonly dictionary?: ArrowTypeLike;
  readonly indices?: ArrowTypeLike;
  toString(): string;
}

/** A column chunk as any apache-arrow copy has it (buffers named as in Arrow JS since v9). */
export interface ArrowDataLike {
  readonly type: ArrowTypeLike;
  readonly offset: number;
  readonly length: number;
  readonly nullCount: number;
  readonly nullBitmap?: Uint8Array | null;
  readonly values?: ArrayBufferView | null;
  readonly valueOffsets?: ArrayBufferView | null;
  readonly variadicBuffers?: readonly Uint8Array[];
  readonly children?: readonly ArrowDataLike[];
  readonly dictionary?: { readonly data: readonly ArrowDataLike[] } | null;
}

/** An Arrow JS Table from any copy of apache-arrow, described by its shape only. */
export interface ArrowTableLike {
  readonly schema: {
    readonly fields: readonly { readonly name: string; readonly type: ArrowTypeLike; readonly nullable: boolean; readonly metadata?: Map<string, string> }[];
    readonly metadata?: Map<string, string>;
  };
  readonly batches: readonly { readonly numRows: number; readonly data: { readonly children: readonly ArrowDataLike[] } }[];
}

const T = arrow.Type;

/**
 * `table` as a Table of this module's apache-arrow: our own tables pass
 * through; a foreign one is rebuilt over its buffers (see the file header).
 * Throws ValidationError naming a column whose type eddy cannot read.
 */
export function adoptArrowTable(table: arrow.Table | ArrowTableLike, what: string): arrow.Table {
  if (isOwnTable(table)) return table;
  if (!isTableLike(table)) throw new ValidationError(`${what}: expected an Arrow JS Table (with schema.fields and batches), got ${describe(table)}`);
  const fields = table.schema.fields.map((f) => {
    const type = adoptType(f.type, () => `${what}: column ${JSON.stringify(f.name)} has Arrow type ${String(f.type)}`);
    return new arrow.Field(f.name, type, f.nullable, f.metadata);
  });
  const schema = new arrow.Schema(fields, table.schema.metadata);
  const batches = table.batches.map((b) => {
    const children = fields.map((f, i) => adoptData(b.data.children[i]!, f.type));
    return new arrow.RecordBatch(schema, arrow.makeData({ type: new arrow.Struct(fields), length: b.numRows, nullCount: 0, children }));
  });
  return new arrow.Table(schema, batches);
}

/**
 * True when the table and everything in it are this module's objects. Checked on prototypes, not
 * with `instanceof`: apache-arrow ≥ 21 makes `instanceof` of Table, RecordBatch, Schema and Data
 * accept other copies' objects (a marker symbol), but not of DataType, whose instances its
 * visitors dispatch on — such a table passes `instanceof Table` and fails in an operator.
 */
function isOwnTable(t: unknown): t is arrow.Table {
  if (!arrow.Table.prototype.isPrototypeOf(t as object)) return false;
  const table = t as arrow.Table;
  if (!table.schema.fields.every((f) => isOwnType(f.type))) return false;
  return table.batches.every((b) => arrow.RecordBatch.prototype.isPrototypeOf(b) && b.data.children.every(isOwnData));
}

function isOwnType(t: arrow.DataType): boolean {
  if (!arrow.DataType.prototype.isPrototypeOf(t)) return false;
  return !arrow.DataType.isDictionary(t) || (isOwnType(t.dictionary) && isOwnType(t.indices));
}

function isOwnData(d: arrow.Data): boolean {
  if (!arrow.Data.prototype.isPrototypeOf(d) || !isOwnType(d.type)) return false;
  if (!d.children.every(isOwnData)) return false;
  return d.dictionary === undefined || (arrow.Vector.prototype.isPrototypeOf(d.dictionary) && d.dictionary.data.every(isOwnData));
}

function isTableLike(t: unknown): t is ArrowTableLike {
  const x = t as ArrowTableLike | null | undefined;
  return typeof x === 'object' && x !== null && Array.isArray(x.schema?.fields) && Array.isArray(x.batches);
}

function describe(v: unknown): string {
  if (v === null || typeof v !== 'object') return String(v);
  return v.constructor?.name ? `a ${v.constructor.name}` : 'an object';
}

/** Our DataType for a foreign one; `where` names the column for the error when eddy cannot read the type. */
function adoptType(t: ArrowTypeLike, where: () => string): arrow.DataType {
  const num = (v: number | undefined, name: string): number => {
    if (typeof v !== 'number') throw new ValidationError(`${where()}, which lacks its ${name}`);
    return v;
  };
  switch (t.typeId) {
    case T.Null: return new arrow.Null();
    case T.Bool: return new arrow.Bool();
    case T.Int: return new arrow.Int(Boolean(t.isSigned), num(t.bitWidth, 'bitWidth') as 8 | 16 | 32 | 64);
    case T.Float: return new arrow.Float(num(t.precision, 'precision'));
    case T.Decimal: return new arrow.Decimal(num(t.scale, 'scale'), num(t.precision, 'precision'), t.bitWidth ?? 128);
    case T.Utf8: return new arrow.Utf8();
    case T.LargeUtf8: return new arrow.LargeUtf8();
    case T.Utf8View: return new arrow.Utf8View();
    case T.Date: return new arrow.Date_(num(t.unit, 'unit'));
    case T.Timestamp: return new arrow.Timestamp(num(t.unit, 'unit'), t.timezone ?? null);
    case T.Dictionary: {
      if (!t.dictionary || !t.indices) throw new ValidationError(`${where()}, a dictionary without value or index type`);
      const values = adoptType(t.dictionary, where);
      const indices = adoptType(t.indices, where);
      return new arrow.Dictionary(values, indices as arrow.Int32, t.id ?? -1, t.isOrdered ?? false);
    }
    default:
      throw new ValidationError(`${where()}, which eddy cannot read; supported are booleans, integers, floats, decimals, strings (also dictionary-encoded), dates and timestamps`);
  }
}

/** Our Data over a foreign chunk's buffers (no copy: makeData keeps typed arrays of the right kind). */
function adoptData(d: ArrowDataLike, type: arrow.DataType): arrow.Data {
  const base = { offset: d.offset, length: d.length, nullCount: d.nullCount, nullBitmap: d.nullBitmap ?? undefined };
  switch (type.typeId) {
    case T.Null: return arrow.makeData({ type: type as arrow.Null, offset: d.offset, length: d.length, nullCount: d.length });
    case T.Utf8: case T.LargeUtf8:
      return arrow.makeData({ ...base, type: type as arrow.Utf8, data: d.values as Uint8Array, valueOffsets: d.valueOffsets as Int32Array });
    case T.Utf8View:
      return arrow.makeData({ ...base, type: type as arrow.Utf8View, views: d.values as Uint8Array, variadicBuffers: d.variadicBuffers ?? [] });
    case T.Dictionary: {
      const dt = type as arrow.Dictionary;
      const chunks = d.dictionary?.data ?? [];
      const dictionary = new arrow.Vector(chunks.map((c) => adoptData(c, dt.dictionary)));
      return arrow.makeData({ ...base, type: dt, data: d.values as Int32Array, dictionary });
    }
    default:
      // Bool, Int, Float, Decimal, Date, Timestamp: one values buffer (bits for Bool).
      return arrow.makeData({ ...base, type: type as arrow.Int32, data: d.values as Int32Array });
  }
}
