/**
 * Logical SQL types and schemas, mapped onto Apache Arrow types.
 *
 * BOOLEAN → Bool, INTEGER → Int32, BIGINT → Int64 (exact, bigint values),
 * DOUBLE → Float64, VARCHAR → Utf8 (or Dictionary<Utf8>), DATE → Date32 (days
 * since the epoch), TIMESTAMP → Timestamp(ms). NULL is the type of an untyped
 * NULL literal; it coerces to any other type.
 */
import * as arrow from 'apache-arrow';

/** A logical column type. */
export type SqlType = 'BOOLEAN' | 'INTEGER' | 'BIGINT' | 'DOUBLE' | 'VARCHAR' | 'DATE' | 'TIMESTAMP' | 'NULL';

/** Every SqlType, in a stable order (for error messages). */
export const SQL_TYPES: readonly SqlType[] = ['BOOLEAN', 'INTEGER', 'BIGINT', 'DOUBLE', 'VARCHAR', 'DATE', 'TIMESTAMP', 'NULL'];

/** One column of a schema. Names are for display and lookup only; plans refer to columns by ordinal. */
export interface Field {
  readonly name: string;
  readonly type: SqlType;
  readonly nullable: boolean;
  /** Optional qualifier (table alias) used for name resolution like `o.o_orderkey`. */
  readonly qualifier?: string;
}

/** An ordered list of fields. */
export interface Schema {
  readonly fields: readonly Field[];
}

export function field(name: string, type: SqlType, nullable = true, qualifier?: string): Field {
  return qualifier === undefined ? { name, type, nullable } : { name, type, nullable, qualifier };
}

export function schemaOf(fields: readonly Field[]): Schema {
  return { fields };
}

export function isNumeric(t: SqlType): boolean {
  return t === 'INTEGER' || t === 'BIGINT' || t === 'DOUBLE';
}

/** Parses a user-written type name (`double`, `int`, `varchar(10)`, `decimal(15,2)`, ...). Returns undefined if unknown. */
export function parseTypeName(name: string): SqlType | undefined {
  const n = name.trim().toUpperCase().replace(/\s*\(.*\)\s*$/, '');
  switch (n) {
    case 'BOOLEAN': case 'BOOL': return 'BOOLEAN';
    case 'INT': case 'INTEGER': case 'INT4': case 'SMALLINT': case 'TINYINT': case 'INT2': case 'INT1': return 'INTEGER';
    case 'BIGINT': case 'INT8': case 'LONG': case 'HUGEINT': return 'BIGINT';
    case 'DOUBLE': case 'FLOAT': case 'FLOAT8': case 'REAL': case 'FLOAT4': case 'DECIMAL': case 'NUMERIC': case 'DOUBLE PRECISION': return 'DOUBLE';
    case 'VARCHAR': case 'TEXT': case 'STRING': case 'CHAR': case 'CHARACTER': case 'CHARACTER VARYING': case 'BPCHAR': return 'VARCHAR';
    case 'DATE': return 'DATE';
    case 'TIMESTAMP': case 'DATETIME': return 'TIMESTAMP';
    default: return undefined;
  }
}

/** The Arrow type eddy uses for a SqlType. */
export function toArrowType(t: SqlType): arrow.DataType {
  return ARROW_TYPES[t];
}

/**
 * The one SqlType → Arrow type map (DESIGN.md "Data model"); the reverse is
 * fromArrowType. Shared instances: Arrow types are immutable.
 */
const ARROW_TYPES: Readonly<Record<SqlType, arrow.DataType>> = {
  BOOLEAN: new arrow.Bool(),
  INTEGER: new arrow.Int32(),
  BIGINT: new arrow.Int64(),
  DOUBLE: new arrow.Float64(),
  VARCHAR: new arrow.Utf8(),
  DATE: new arrow.DateDay(),
  TIMESTAMP: new arrow.TimestampMillisecond(),
  NULL: new arrow.Null(),
};

/** The type names a user may write, for messages about an unknown type. */
export const SQL_TYPE_NAMES = 'BOOLEAN, INTEGER, BIGINT, DOUBLE, VARCHAR, DATE, TIMESTAMP';

/** The SqlType of an Arrow type, or undefined if eddy cannot represent it. Dictionary<Utf8> maps to VARCHAR. */
export function fromArrowType(t: arrow.DataType): SqlType | undefined {
  if (arrow.DataType.isDictionary(t)) return fromArrowType(t.dictionary);
  switch (t.typeId) {
    case arrow.Type.Bool: return 'BOOLEAN';
    case arrow.Type.Int: {
      const it = t as arrow.Int;
      if (it.bitWidth === 64 || (it.bitWidth === 32 && !it.isSigned)) return 'BIGINT';
      return 'INTEGER';
    }
    case arrow.Type.Float: return 'DOUBLE';
    case arrow.Type.Decimal: return 'DOUBLE';
    case arrow.Type.Utf8: case arrow.Type.LargeUtf8: return 'VARCHAR';
    case arrow.Type.Date: return 'DATE';
    case arrow.Type.Timestamp: return 'TIMESTAMP';
    case arrow.Type.Null: return 'NULL';
    default: return undefined;
  }
}

/** Builds an Arrow schema from an eddy schema (names made unique are the caller's concern). */
export function toArrowSchema(s: Schema): arrow.Schema {
  return new arrow.Schema(s.fields.map((f) => new arrow.Field(f.name, toArrowType(f.type), f.nullable)));
}

/** Builds an eddy schema from an Arrow schema; throws on a column type eddy cannot represent. */
export function fromArrowSchema(s: arrow.Schema, qualifier?: string): Schema {
  return schemaOf(
    s.fields.map((f) => {
      const t = fromArrowType(f.type);
      if (t === undefined) throw new TypeError(`column "${f.name}" has Arrow type ${String(f.type)}, which eddy does not support`);
      return field(f.name, t, f.nullable, qualifier);
    }),
  );
}

/**
 * The common supertype two types coerce to for comparison, arithmetic, UNION and CASE,
 * or undefined when they do not mix (e.g. VARCHAR and DOUBLE).
 */
export function commonType(a: SqlType, b: SqlType): SqlType | undefined {
  if (a === b) return a;
  if (a === 'NULL') return b;
  if (b === 'NULL') return a;
  if (isNumeric(a) && isNumeric(b)) {
    if (a === 'DOUBLE' || b === 'DOUBLE') return 'DOUBLE';
    return 'BIGINT';
  }
  if ((a === 'DATE' && b === 'TIMESTAMP') || (a === 'TIMESTAMP' && b === 'DATE')) return 'TIMESTAMP';
  return undefined;
}

/** Milliseconds per day, for DATE arithmetic. */
export const MS_PER_DAY = 86_400_000;

/**
 * The range of DATE values: ±(2^31 - 1) days from 1970-01-01 (Date32), 5877642-06-24 (BC) to 5881580-07-11.
 */
export const MAX_DATE_DAYS = 2 ** 31 - 1;

/** How the DATE range reads in error messages. */
export const DATE_RANGE_TEXT = 'DATE values lie between 5877642-06-24 (BC) and 5881580-07-11';

/**
 * The range of TIMESTAMP values: ±8.64e15 ms from 1970-01-01, JavaScript Date's range (271822 BC
 * to 275760-09-13). Decision: every TIMESTAMP the engine makes (a literal, a cast, date_trunc,
 * arithmetic, the epoch functions) lies in it, so every value prints and reads as a number (Arrow
 * reads a millisecond timestamp as a JS number, exact only below 2^53); past it is an error, as
 * DuckDB errors past its own (slightly wider) range.
 */
export const MAX_TIMESTAMP_MS = 8.64e15;

/** How the TIMESTAMP range reads in error messages. */
export const TIMESTAMP_RANGE_TEXT = 'TIMESTAMP values lie between 271822-04-20 (BC) and 275760-09-13';
