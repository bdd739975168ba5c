import { describe, expect, it } from 'vitest';
import { join, scan } from '../../../src/relnode/rel.js';
import { call } from '../../../src/relnode/rex.js';
import { joinKeyExpressions } from '../../../src/planner/rules/join-key-expressions.js';
import { and, CUSTOMERS, eq, gt, int, OC, ORDERS, plus, random, show } from '../plan-fixtures.js';

const orders = scan(ORDERS);
const customers = scan(CUSTOMERS);
const { oId, oCust, cId, cName, oStatus } = OC;
const lower = (e: ReturnType<typeof plus>) => call('lower', [e], 'VARCHAR');
const rewrite = (n: Parameters<typeof joinKeyExpressions.rewrite>[0]) => joinKeyExpressions.rewrite(n);

describe('join-key-expressions', () => {
  it('computes an expression key below its side and keys the join on the new column', () => {
    const out = rewrite(join(orders, customers, 'inner', eq(plus(oCust, int(1)), cId)));
    expect(show(out)).toBe(
      `Project(exprs=[o_id, o_cust, o_total, o_status, o_date, c_id, c_name, c_region], names=[o_id, o_cust, o_total, o_status, o_date, c_id, c_name, c_region])
  Join(type=[inner], condition=[(__left_key0 = c_id)])
    Project(exprs=[o_id, o_cust, o_total, o_status, o_date, (o_cust + 1)], names=[o_id, o_cust, o_total, o_status, o_date, __left_key0])
      Scan(table=[orders], version=[t_orders#1])
    Scan(table=[customers], version=[t_customers#1])`);
    expect(out.schema).toEqual(join(orders, customers, 'inner', eq(plus(oCust, int(1)), cId)).schema);
  });

  it('handles keys on both sides, written either way round, and keeps the other conjuncts (renumbered)', () => {
    const out = rewrite(join(orders, customers, 'left', and(eq(lower(cName), lower(oStatus)), gt(oId, cId))));
    expect(show(out)).toContain('Join(type=[left], condition=[((__right_key0 = __left_key0) AND (o_id > c_id))])');
    expect(show(out)).toContain('Project(exprs=[o_id, o_cust, o_total, o_status, o_date, lower(o_status)]');
    expect(show(out)).toContain('Project(exprs=[c_id, c_name, c_region, lower(c_name)]');
  });

  it('semi and anti joins drop only the left key column', () => {
    for (const type of ['semi', 'anti'] as const) {
      const before = join(orders, customers, type, eq(plus(oCust, int(1)), cId));
      const out = rewrite(before);
      expect(out.schema).toEqual(before.schema);
      expect(show(out).split('\n')[0]).toBe('Project(exprs=[o_id, o_cust, o_total, o_status, o_date], names=[o_id, o_cust, o_total, o_status, o_date])');
    }
  });

  it('rewrites NOT IN\'s NULL-aware condition at every occurrence of the expression', () => {
    const k = plus(oCust, int(1));
    const cond = call('or', [eq(k, cId), call('is_null', [k], 'BOOLEAN'), call('is_null', [cId], 'BOOLEAN')], 'BOOLEAN');
    expect(show(rewrite(join(orders, customers, 'anti', cond)))).toContain('condition=[((__left_key0 = c_id) OR (__left_key0 IS NULL) OR (c_id IS NULL))]');
  });

  it('leaves column keys, one-sided and mixed equalities, cross joins and non-deterministic keys alone', () => {
    for (const cond of [
      eq(oCust, cId), // already a column key
      eq(plus(oCust, oId), int(3)), // one side only
      eq(plus(oCust, cId), oId), // an expression over both sides
      eq(plus(oCust, call('floor', [random()], 'INTEGER')), cId), // not deterministic
      gt(plus(oCust, int(1)), cId), // not an equality
    ]) {
      const j = join(orders, customers, 'inner', cond);
      expect(rewrite(j)).toBe(j);
    }
  });
});
