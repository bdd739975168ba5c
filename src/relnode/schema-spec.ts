/**
 * Column types as users write them: a Schema, or a map of column name to SQL
 * type name (`{ v: 'INTEGER' }`).
 *
 * Decision: the conversion lives here, below every layer that takes a
 * schema from users (the Table API's fromRecords and file readers, the
 * stream API's sources and transformations), so both read one spelling with
 * one error message. src/api re-exports it as the public entry.
 */
import { ValidationError } from './errors.js';
import { field, parseTypeName, schemaOf, type Schema, type SqlType, SQL_TYPE_NAMES } from './types.js';

/** Column types for fromRecords / file readers / stream sources: a map of column name to SQL type name. */
export type SchemaSpec = Schema | Readonly<Record<string, SqlType | string>>;

/** The Schema of a SchemaSpec (every column nullable); an unknown type name is a ValidationError. */
export function toSchema(spec: SchemaSpec): Schema {
  if ('fields' in spec && Array.isArray((spec as Schema).fields)) return spec as Schema;
  return schemaOf(Object.entries(spec as Record<string, string>).map(([name, t]) => {
    const type = parseTypeName(t);
    if (!type) throw new ValidationError(`unknown type "${t}" for column "${name}"; use one of ${SQL_TYPE_NAMES}`);
    return field(name, type, true);
  }));
}
