/** Small plan-building helpers for optimizer tests: fake tables and terse expression constructors. */
import { explainTree } from '../../src/relnode/explain.js';
import type { RelNode, TableRef } from '../../src/relnode/rel.js';
import { call, inputRef, literal, type LiteralValue, type RexNode } from '../../src/relnode/rex.js';
import { field, schemaOf, type Field, type SqlType } from '../../src/relnode/types.js';

/** A fake source: id, version and schema only (the handle is never opened). */
export function tableRef(name: string, fields: readonly Field[], version = 1): TableRef {
  return { id: `t_${name}`, name, version, schema: schemaOf(fields), handle: {} };
}

/** orders(o_id, o_cust, o_total, o_status, o_date) */
export const ORDERS = tableRef('orders', [
  field('o_id', 'INTEGER', false), field('o_cust', 'INTEGER'), field('o_total', 'DOUBLE'), field('o_status', 'VARCHAR'), field('o_date', 'DATE'),
]);

/** customers(c_id, c_name, c_region) */
export const CUSTOMERS = tableRef('customers', [field('c_id', 'INTEGER', false), field('c_name', 'VARCHAR'), field('c_region', 'VARCHAR')]);

export const ref = (index: number, type: SqlType, name?: string): RexNode => inputRef(index, type, name);

/** Column references over `orders ⋈ customers` (orders' five columns, then customers'). */
export const OC = {
  oId: ref(0, 'INTEGER', 'o_id'),
  oCust: ref(1, 'INTEGER', 'o_cust'),
  oTotal: ref(2, 'DOUBLE', 'o_total'),
  oStatus: ref(3, 'VARCHAR', 'o_status'),
  cId: ref(5, 'INTEGER', 'c_id'),
  cName: ref(6, 'VARCHAR', 'c_name'),
  cRegion: ref(7, 'VARCHAR', 'c_region'),
} as const;
export const lit = (v: LiteralValue, type: SqlType): RexNode => literal(v, type);
export const int = (v: number): RexNode => literal(v, 'INTEGER');
export const str = (v: string): RexNode => literal(v, 'VARCHAR');
export const TRUE = literal(true, 'BOOLEAN');
export const FALSE = literal(false, 'BOOLEAN');
export const NULL_BOOL = literal(null, 'BOOLEAN');

const bin = (op: string, type: SqlType) => (a: RexNode, b: RexNode): RexNode => call(op, [a, b], type);
export const eq = bin('eq', 'BOOLEAN');
export const gt = bin('gt', 'BOOLEAN');
export const lt = bin('lt', 'BOOLEAN');
export const plus = bin('plus', 'INTEGER');
export const and = (...a: RexNode[]): RexNode => call('and', a, 'BOOLEAN');
export const or = (...a: RexNode[]): RexNode => call('or', a, 'BOOLEAN');
export const not = (a: RexNode): RexNode => call('not', [a], 'BOOLEAN');
export const random = (): RexNode => call('random', [], 'DOUBLE');
export const now = (): RexNode => call('now', [], 'TIMESTAMP');

/** EXPLAIN text of a plan. */
export const show = (n: RelNode): string => explainTree(n);
