import { describe, expect, it } from 'vitest';
import { aggregate, cacheSource, distinct, filter, join, limit, project, scan, sort, union, values, type RelNode } from '../../../src/relnode/rel.js';
import { schemaOf, field } from '../../../src/relnode/types.js';
import { pruneColumns } from '../../../src/planner/rules/prune-columns.js';
import { CUSTOMERS, eq, gt, int, lit, ORDERS, plus, ref, show, str } from '../plan-fixtures.js';

const orders = scan(ORDERS);
const customers = scan(CUSTOMERS);
const oId = ref(0, 'INTEGER', 'o_id');
const oCust = ref(1, 'INTEGER', 'o_cust');
const oTotal = ref(2, 'DOUBLE', 'o_total');
const oStatus = ref(3, 'VARCHAR', 'o_status');
const cId = ref(5, 'INTEGER', 'c_id');
const cName = ref(6, 'VARCHAR', 'c_name');

/** Prunes, checks the root schema is the same object shape and a second run changes nothing, and returns the plan text. */
function pruned(before: RelNode): string {
  const after = pruneColumns.rewrite(before);
  expect(after.schema).toEqual(before.schema);
  expect(pruneColumns.rewrite(after)).toBe(after);
  return show(after);
}

describe('prune-columns', () => {
  it('narrows a scan under a project, keeping the project output', () => {
    const before = project(orders, [oTotal, oId], ['o_total', 'o_id']);
    expect(pruned(before)).toBe(
      `Project(exprs=[o_total, o_id], names=[o_total, o_id])
  Scan(table=[orders], version=[t_orders#1], columns=[o_id, o_total])`);
  });

  it('looks through Sort, Filter and Limit, keeping the columns they read', () => {
    const before = project(limit(sort(filter(orders, eq(oStatus, str('open'))), [{ index: 2, desc: true, nullsFirst: false }]), 3), [oId], ['o_id']);
    expect(show(before)).toBe(
      `Project(exprs=[o_id], names=[o_id])
  Limit(fetch=[3])
    Sort(keys=[o_total DESC NULLS LAST])
      Filter(condition=[(o_status = 'open')])
        Scan(table=[orders], version=[t_orders#1])`);
    expect(pruned(before)).toBe(
      `Project(exprs=[o_id], names=[o_id])
  Limit(fetch=[3])
    Sort(keys=[o_total DESC NULLS LAST])
      Filter(condition=[(o_status = 'open')])
        Scan(table=[orders], version=[t_orders#1], columns=[o_id, o_total, o_status])`);
  });

  it('narrows both join inputs to the output and condition columns and renumbers the condition', () => {
    const before = project(filter(join(orders, customers, 'inner', eq(oCust, cId)), gt(oTotal, lit(10, 'DOUBLE'))), [cName, oTotal], ['c_name', 'o_total']);
    expect(pruned(before)).toBe(
      `Project(exprs=[c_name, o_total], names=[c_name, o_total])
  Filter(condition=[(o_total > 10)])
    Join(type=[inner], condition=[(o_cust = c_id)])
      Scan(table=[orders], version=[t_orders#1], columns=[o_cust, o_total])
      Scan(table=[customers], version=[t_customers#1], columns=[c_id, c_name])`);
  });

  it('drops unused aggregate calls but keeps every group key, and narrows the aggregate input', () => {
    const agg = aggregate(orders, [3], [
      { fn: 'sum', args: [2], distinct: false, type: 'DOUBLE', name: 's' },
      { fn: 'count_star', args: [], distinct: false, type: 'BIGINT', name: 'n' },
    ]);
    const before = project(agg, [ref(2, 'BIGINT', 'n')], ['n']);
    expect(pruned(before)).toBe(
      `Project(exprs=[n], names=[n])
  Aggregate(group=[o_status], aggs=[count(*) AS n])
    Scan(table=[orders], version=[t_orders#1], columns=[o_status])`);
  });

  it('keeps one column when a consumer reads none (count(*)), so rows are still counted', () => {
    const before = aggregate(orders, [], [{ fn: 'count_star', args: [], distinct: false, type: 'BIGINT', name: 'n' }]);
    expect(pruned(before)).toBe(
      `Aggregate(group=[], aggs=[count(*) AS n])
  Scan(table=[orders], version=[t_orders#1], columns=[o_id])`);
  });

  it('drops unused expressions of an inner Project (even non-trivial ones)', () => {
    const before = project(project(orders, [oId, plus(oCust, int(1)), oStatus], ['o_id', 'c1', 'o_status']), [ref(2, 'VARCHAR', 'o_status')], ['s']);
    expect(pruned(before)).toBe(
      `Project(exprs=[o_status], names=[s])
  Project(exprs=[o_status], names=[o_status])
    Scan(table=[orders], version=[t_orders#1], columns=[o_status])`);
  });

  it('narrows UNION ALL branches, inserting a Project over a branch that cannot narrow itself', () => {
    const before = project(union([orders, distinct(orders)], true), [oStatus], ['o_status']);
    expect(pruned(before)).toBe(
      `Project(exprs=[o_status], names=[o_status])
  Union(all=[true])
    Scan(table=[orders], version=[t_orders#1], columns=[o_status])
    Project(exprs=[o_status], names=[o_status])
      Distinct()
        Scan(table=[orders], version=[t_orders#1])`);
  });

  it('does not narrow below UNION (distinct) or Distinct: every column decides duplicates', () => {
    const u = project(union([orders, orders], false), [oStatus], ['o_status']);
    expect(pruneColumns.rewrite(u)).toBe(u);
    const d = project(distinct(orders), [oStatus], ['o_status']);
    expect(pruneColumns.rewrite(d)).toBe(d);
  });

  it('narrows the right side of a semi join to its condition columns', () => {
    const customersProjected = project(customers, [ref(0, 'INTEGER', 'c_id'), ref(1, 'VARCHAR', 'c_name'), ref(2, 'VARCHAR', 'c_region')], ['c_id', 'c_name', 'c_region']);
    const before = join(orders, customersProjected, 'semi', eq(oCust, cId));
    expect(pruned(before)).toBe(
      `Join(type=[semi], condition=[(o_cust = c_id)])
  Scan(table=[orders], version=[t_orders#1])
  Project(exprs=[c_id], names=[c_id])
    Scan(table=[customers], version=[t_customers#1], columns=[c_id])`);
  });

  it('narrows cache sources and Values', () => {
    const cached = project(cacheSource('e1', orders), [oStatus], ['o_status']);
    expect(pruned(cached)).toBe(
      `Project(exprs=[o_status], names=[o_status])
  CacheSource(entry=[e1], columns=[o_status])`);
    const rows = values([[1, 'a', true], [2, 'b', false]], schemaOf([field('a', 'INTEGER'), field('b', 'VARCHAR'), field('c', 'BOOLEAN')]));
    expect(pruned(project(rows, [ref(1, 'VARCHAR', 'b')], ['b']))).toBe(
      `Project(exprs=[b], names=[b])
  Values(rows=[('a'), ('b')], types=[VARCHAR])`);
  });

  it('never narrows the root: a plan without a narrowing consumer is unchanged', () => {
    const before = filter(join(orders, customers, 'inner', eq(oCust, cId)), gt(oId, int(1)));
    expect(pruneColumns.rewrite(before)).toBe(before);
  });
});
