import { describe, expect, it } from 'vitest';
import { aggregate, filter, join, project, scan, setOp, sort, union, values, type JoinType } from '../../../src/relnode/rel.js';
import { removeEmptyRelations } from '../../../src/planner/rules/remove-empty-relations.js';
import { CUSTOMERS, eq, FALSE, gt, int, NULL_BOOL, ORDERS, ref, show } from '../plan-fixtures.js';

const orders = scan(ORDERS);
const customers = scan(CUSTOMERS);
const emptyOrders = values([], orders.schema);
const emptyCustomers = values([], customers.schema);
const oId = ref(0, 'INTEGER', 'o_id');
const onKey = eq(ref(1, 'INTEGER', 'o_cust'), ref(5, 'INTEGER', 'c_id'));
const countStar = { fn: 'count_star' as const, args: [], distinct: false, type: 'BIGINT' as const, name: 'n' };

describe('remove-empty-relations', () => {
  it('propagates an empty input up through Filter, Sort and Project', () => {
    const before = project(sort(filter(emptyOrders, gt(oId, int(1))), [{ index: 2, desc: true, nullsFirst: false }]), [oId], ['o_id']);
    expect(show(before)).toBe(
      `Project(exprs=[o_id], names=[o_id])
  Sort(keys=[o_total DESC NULLS LAST])
    Filter(condition=[(o_id > 1)])
      Values(rows=[], types=[INTEGER, INTEGER, DOUBLE, VARCHAR, DATE])`);
    expect(show(removeEmptyRelations.rewrite(before))).toBe('Values(rows=[], types=[INTEGER])');
  });

  it('turns Filter(FALSE) and Filter(NULL) into empty relations', () => {
    expect(show(removeEmptyRelations.rewrite(project(filter(orders, FALSE), [oId], ['o_id'])))).toBe('Values(rows=[], types=[INTEGER])');
    expect(show(removeEmptyRelations.rewrite(filter(orders, NULL_BOOL)))).toBe('Values(rows=[], types=[INTEGER, INTEGER, DOUBLE, VARCHAR, DATE])');
  });

  it('empties a grouped Aggregate over empty, but keeps a global one (it yields one row)', () => {
    expect(show(removeEmptyRelations.rewrite(aggregate(emptyOrders, [3], [countStar])))).toBe('Values(rows=[], types=[VARCHAR, BIGINT])');
    const global = aggregate(emptyOrders, [], [countStar]);
    expect(removeEmptyRelations.rewrite(global)).toBe(global);
  });

  it('a join whose condition is FALSE or NULL never matches: inner/semi empty, anti keeps the left, outer joins pad with NULLs', () => {
    for (const cond of [FALSE, NULL_BOOL]) {
      expect(removeEmptyRelations.rewrite(join(orders, customers, 'inner', cond))).toMatchObject({ kind: 'Values', rows: [] });
      expect(removeEmptyRelations.rewrite(join(orders, customers, 'semi', cond))).toMatchObject({ kind: 'Values', rows: [] });
      expect(removeEmptyRelations.rewrite(join(orders, customers, 'anti', cond))).toBe(orders);
      const left = removeEmptyRelations.rewrite(join(orders, customers, 'left', cond));
      expect(show(left)).toMatch(/^Project\(exprs=\[o_id, o_cust, o_total, o_status, o_date, NULL, NULL.*\n  Scan\(table=\[orders\]/);
      const right = removeEmptyRelations.rewrite(join(orders, customers, 'right', cond));
      expect(show(right)).toMatch(/^Project\(exprs=\[NULL, NULL, NULL, NULL, NULL, c_id.*\n  Scan\(table=\[customers\]/);
      const full = join(orders, customers, 'full', cond);
      expect(removeEmptyRelations.rewrite(full)).toBe(full);
    }
  });

  it('empties inner, cross and semi joins with an empty side', () => {
    for (const t of ['inner', 'cross', 'semi'] as JoinType[]) {
      const cond = t === 'cross' ? { kind: 'Literal' as const, value: true, type: 'BOOLEAN' as const } : onKey;
      expect(removeEmptyRelations.rewrite(join(orders, emptyCustomers, t, cond))).toMatchObject({ kind: 'Values', rows: [] });
      expect(removeEmptyRelations.rewrite(join(emptyOrders, customers, t, cond))).toMatchObject({ kind: 'Values', rows: [] });
    }
  });

  it('reduces an anti join with an empty right side to its left side', () => {
    const before = join(orders, emptyCustomers, 'anti', onKey);
    expect(show(removeEmptyRelations.rewrite(before))).toBe('Scan(table=[orders], version=[t_orders#1])');
    expect(removeEmptyRelations.rewrite(join(emptyOrders, customers, 'anti', onKey))).toMatchObject({ kind: 'Values', rows: [] });
  });

  it('pads a left join with an empty right side with NULLs; an empty left side empties it', () => {
    expect(show(removeEmptyRelations.rewrite(join(orders, emptyCustomers, 'left', onKey)))).toBe(
      `Project(exprs=[o_id, o_cust, o_total, o_status, o_date, NULL, NULL, NULL], names=[o_id, o_cust, o_total, o_status, o_date, c_id, c_name, c_region])
  Scan(table=[orders], version=[t_orders#1])`);
    expect(show(removeEmptyRelations.rewrite(join(emptyOrders, customers, 'left', onKey)))).toBe(
      'Values(rows=[], types=[INTEGER, INTEGER, DOUBLE, VARCHAR, DATE, INTEGER, VARCHAR, VARCHAR])');
  });

  it('drops empty union branches; one branch left replaces the union', () => {
    const before = union([emptyOrders, orders, filter(orders, FALSE)], true);
    expect(show(removeEmptyRelations.rewrite(before))).toBe('Scan(table=[orders], version=[t_orders#1])');
  });

  it('keeps the union column names when the first branch is dropped', () => {
    const renamed = project(orders, [0, 1, 2, 3, 4].map((i) => ref(i, orders.schema.fields[i]!.type)), ['a', 'b', 'c', 'd', 'e']);
    const before = union([emptyOrders, renamed, orders], false);
    const after = removeEmptyRelations.rewrite(before);
    expect(show(after)).toBe(
      `Project(exprs=[a, b, c, d, e], names=[o_id, o_cust, o_total, o_status, o_date])
  Union(all=[false])
    Project(exprs=[o_id, o_cust, o_total, o_status, o_date], names=[a, b, c, d, e])
      Scan(table=[orders], version=[t_orders#1])
    Scan(table=[orders], version=[t_orders#1])`);
    expect(after.schema.fields.map((f) => f.name)).toEqual(before.schema.fields.map((f) => f.name));
  });

  it('simplifies set operations with an empty side', () => {
    expect(show(removeEmptyRelations.rewrite(setOp('except', orders, emptyOrders, false)))).toBe(
      `Distinct()
  Scan(table=[orders], version=[t_orders#1])`);
    expect(removeEmptyRelations.rewrite(setOp('intersect', orders, emptyOrders, true))).toMatchObject({ kind: 'Values', rows: [] });
  });

  it('leaves non-empty plans unchanged', () => {
    const before = project(filter(join(orders, customers, 'inner', onKey), gt(oId, int(1))), [oId], ['o_id']);
    expect(removeEmptyRelations.rewrite(before)).toBe(before);
  });
});
