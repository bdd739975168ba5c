/**
 * Set-operation nodes: UNION [ALL], INTERSECT / EXCEPT [ALL] and DISTINCT.
 * Their inputs must agree column by column on type (NULL fits any); the
 * output column is nullable when any input's is.
 */
import { ValidationError } from './errors.js';
import type { RelNode } from './rel.js';
import { field, schemaOf, type Schema } from './types.js';

export interface Union {
  readonly kind: 'Union';
  readonly inputs: readonly RelNode[];
  /** UNION ALL when true; UNION (distinct) when false. */
  readonly all: boolean;
  readonly schema: Schema;
}

export interface SetOp {
  readonly kind: 'SetOp';
  readonly op: 'intersect' | 'except';
  readonly left: RelNode;
  readonly right: RelNode;
  readonly all: boolean;
  readonly schema: Schema;
}

export interface Distinct {
  readonly kind: 'Distinct';
  readonly input: RelNode;
  readonly schema: Schema;
}

function check(cond: boolean, msg: string): asserts cond {
  if (!cond) throw new ValidationError(msg);
}

function checkCompatible(a: Schema, b: Schema, what: string): void {
  check(a.fields.length === b.fields.length, `${what} needs inputs with the same number of columns, got ${a.fields.length} and ${b.fields.length}`);
  a.fields.forEach((f, i) => {
    const g = b.fields[i]!;
    check(f.type === g.type || f.type === 'NULL' || g.type === 'NULL', `${what} column ${i + 1} ("${f.name}") is ${f.type} on one side and ${g.type} on the other; add a cast`);
  });
}

function mergeFields(schemas: readonly Schema[]): Schema {
  const first = schemas[0]!;
  return schemaOf(first.fields.map((f, i) => {
    const types = schemas.map((s) => s.fields[i]!.type).filter((t) => t !== 'NULL');
    return field(f.name, types[0] ?? 'NULL', schemas.some((s) => s.fields[i]!.nullable));
  }));
}

export function union(inputs: readonly RelNode[], all: boolean): Union {
  check(inputs.length >= 1, 'union needs at least one input');
  for (const i of inputs.slice(1)) checkCompatible(inputs[0]!.schema, i.schema, all ? 'UNION ALL' : 'UNION');
  return { kind: 'Union', inputs, all, schema: mergeFields(inputs.map((i) => i.schema)) };
}

export function setOp(op: 'intersect' | 'except', left: RelNode, right: RelNode, all: boolean): SetOp {
  checkCompatible(left.schema, right.schema, op.toUpperCase());
  return { kind: 'SetOp', op, left, right, all, schema: mergeFields([left.schema, right.schema]) };
}

export function distinct(input: RelNode): Distinct {
  return { kind: 'Distinct', input, schema: input.schema };
}
