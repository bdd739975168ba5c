/**
 * Plain JS records → typed rows for `env.fromRecords`: the schema inferred
 * from the values (number → INTEGER or DOUBLE, bigint → BIGINT, Date →
 * TIMESTAMP), and each value checked against its column's type.
 */
import { ValidationError } from '../relnode/errors.js';
import type { LiteralValue } from '../relnode/rex.js';
import { field, schemaOf, type Schema, type SqlType } from '../relnode/types.js';
import { inferLiteralType } from '../sql/binder/call.js';

/** The schema of plain records (a column's values must agree on one type; INTEGER and DOUBLE widen to DOUBLE). */
export function inferRecordSchema(rows: readonly Readonly<Record<string, unknown>>[]): Schema {
  const names: string[] = [];
  const types = new Map<string, SqlType>();
  for (const r of rows) {
    for (const [k, v] of Object.entries(r)) {
      if (!types.has(k)) { names.push(k); types.set(k, 'NULL'); }
      const t = jsType(v, k);
      const cur = types.get(k)!;
      if (t === 'NULL' || t === cur) continue;
      if (cur === 'NULL') types.set(k, t);
      else if ((cur === 'INTEGER' && t === 'DOUBLE') || (cur === 'DOUBLE' && t === 'INTEGER')) types.set(k, 'DOUBLE');
      else throw new ValidationError(`fromRecords: column "${k}" mixes ${cur} and ${t} values; pass a schema`);
    }
  }
  return schemaOf(names.map((n) => field(n, types.get(n) === 'NULL' ? 'VARCHAR' : types.get(n)!, true)));
}

function jsType(v: unknown, name: string): SqlType {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number') return inferLiteralType(v);
  if (typeof v === 'bigint') return 'BIGINT';
  if (typeof v === 'string') return 'VARCHAR';
  if (typeof v === 'boolean') return 'BOOLEAN';
  if (v instanceof Date) return 'TIMESTAMP';
  throw new ValidationError(`fromRecords: column "${name}" has a value of unsupported type ${typeof v}`);
}

/** A record value as a literal of its column's type. */
export function toLiteral(v: unknown, t: SqlType, name: string): LiteralValue {
  if (v === null || v === undefined) return null;
  const bad = (): never => { throw new ValidationError(`fromRecords: column "${name}" is ${t} but got ${JSON.stringify(typeof v === 'bigint' ? String(v) : v)}`); };
  switch (t) {
    case 'INTEGER': return typeof v === 'number' && Number.isInteger(v) ? v : bad();
    case 'DOUBLE': return typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : bad();
    case 'BIGINT': return typeof v === 'bigint' ? v : typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : bad();
    case 'VARCHAR': return typeof v === 'string' ? v : bad();
    case 'BOOLEAN': return typeof v === 'boolean' ? v : bad();
    case 'DATE': return v instanceof Date ? Math.floor(v.getTime() / 86_400_000) : typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? Date.parse(`${v}T00:00:00Z`) / 86_400_000 : bad();
    case 'TIMESTAMP': return v instanceof Date ? v.getTime() : typeof v === 'number' ? v : bad();
    case 'NULL': return null;
  }
}
