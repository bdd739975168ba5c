import { describe, expect, it } from 'vitest';
import { filter, limit, project, scan, sort, union, values } from '../../../src/relnode/rel.js';
import { field, schemaOf } from '../../../src/relnode/types.js';
import { pushDownLimit } from '../../../src/planner/rules/push-down-limit.js';
import { gt, int, ORDERS, ref, show } from '../plan-fixtures.js';

const orders = scan(ORDERS);
const oId = ref(0, 'INTEGER', 'o_id');
const byTotal = [{ index: 2, desc: true, nullsFirst: false }];

describe('push-down-limit', () => {
  it('turns Limit over Sort into a top-k Sort with fetch and offset', () => {
    const before = limit(sort(orders, byTotal), 10, 5);
    expect(show(before)).toBe(
      `Limit(fetch=[10], offset=[5])
  Sort(keys=[o_total DESC NULLS LAST])
    Scan(table=[orders], version=[t_orders#1])`);
    expect(show(pushDownLimit.rewrite(before))).toBe(
      `Sort(keys=[o_total DESC NULLS LAST], fetch=[10], offset=[5])
  Scan(table=[orders], version=[t_orders#1])`);
  });

  it('combines with an existing top-k and with a Limit below', () => {
    expect(show(pushDownLimit.rewrite(limit(sort(orders, byTotal, 10), 20, 5)))).toBe(
      `Sort(keys=[o_total DESC NULLS LAST], fetch=[5], offset=[5])
  Scan(table=[orders], version=[t_orders#1])`);
    expect(show(pushDownLimit.rewrite(limit(limit(orders, 10, 2), 5, 3)))).toBe(
      `Limit(fetch=[5], offset=[5])
  Scan(table=[orders], version=[t_orders#1])`);
  });

  it('moves below a Project, then into the Sort under it', () => {
    const before = limit(project(sort(orders, byTotal), [oId], ['o_id']), 10);
    expect(show(pushDownLimit.rewrite(before))).toBe(
      `Project(exprs=[o_id], names=[o_id])
  Sort(keys=[o_total DESC NULLS LAST], fetch=[10])
    Scan(table=[orders], version=[t_orders#1])`);
  });

  it('replaces Limit(0) by an empty Values with the same schema', () => {
    const before = project(limit(orders, 0), [oId], ['o_id']);
    expect(show(pushDownLimit.rewrite(before))).toBe(
      `Project(exprs=[o_id], names=[o_id])
  Values(rows=[], types=[INTEGER, INTEGER, DOUBLE, VARCHAR, DATE])`);
  });

  it('caps each UNION ALL branch at fetch + offset and keeps the outer Limit; branches already small enough stay', () => {
    const before = limit(union([orders, sort(orders, byTotal), limit(orders, 2)], true), 10, 5);
    const after = pushDownLimit.rewrite(before);
    expect(show(after)).toBe(
      `Limit(fetch=[10], offset=[5])
  Union(all=[true])
    Limit(fetch=[15])
      Scan(table=[orders], version=[t_orders#1])
    Sort(keys=[o_total DESC NULLS LAST], fetch=[15])
      Scan(table=[orders], version=[t_orders#1])
    Limit(fetch=[2])
      Scan(table=[orders], version=[t_orders#1])`);
    expect(pushDownLimit.rewrite(after)).toBe(after);
  });

  it('leaves UNION (distinct) and Filter alone', () => {
    const u = limit(union([orders, orders], false), 10);
    expect(pushDownLimit.rewrite(u)).toBe(u);
    const f = limit(filter(orders, gt(oId, int(1))), 10);
    expect(pushDownLimit.rewrite(f)).toBe(f);
  });

  it('slices Values rows', () => {
    const before = limit(values([[1], [2], [3]], schemaOf([field('x', 'INTEGER')])), 1, 1);
    expect(show(pushDownLimit.rewrite(before))).toBe('Values(rows=[(2)], types=[INTEGER])');
  });
});
