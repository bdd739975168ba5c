import { describe, expect, it } from 'vitest';
import { aggregate, cacheSource, distinct, filter, join, project, scan, sort, union, type JoinType } from '../../../src/relnode/rel.js';
import { pushDownFilter } from '../../../src/planner/rules/push-down-filter.js';
import { and, CUSTOMERS, eq, gt, int, lit, lt, ORDERS, plus, random, ref, show, str } from '../plan-fixtures.js';

const orders = scan(ORDERS);
const customers = scan(CUSTOMERS);
const oId = ref(0, 'INTEGER', 'o_id');
const oCust = ref(1, 'INTEGER', 'o_cust');
const oStatus = ref(3, 'VARCHAR', 'o_status');
// Over orders ⋈ customers: customers' columns start at 5.
const cId = ref(5, 'INTEGER', 'c_id');
const cRegion = ref(7, 'VARCHAR', 'c_region');

const ordersJoinCustomers = (type: JoinType, on = eq(oCust, cId)) => join(orders, customers, type, on);

describe('push-down-filter', () => {
  it('pushes through a Project by substituting its expressions, and copies into the scan', () => {
    const p = project(orders, [oId, plus(oCust, int(1))], ['o_id', 'next_cust']);
    const before = filter(p, and(gt(ref(1, 'INTEGER', 'next_cust'), int(10)), lt(ref(0, 'INTEGER', 'o_id'), int(5))));
    expect(show(before)).toBe(
      `Filter(condition=[((next_cust > 10) AND (o_id < 5))])
  Project(exprs=[o_id, (o_cust + 1)], names=[o_id, next_cust])
    Scan(table=[orders], version=[t_orders#1])`);
    expect(show(pushDownFilter.rewrite(before))).toBe(
      `Project(exprs=[o_id, (o_cust + 1)], names=[o_id, next_cust])
  Filter(condition=[(((o_cust + 1) > 10) AND (o_id < 5))])
    Scan(table=[orders], version=[t_orders#1], filters=[((o_cust + 1) > 10), (o_id < 5)])`);
  });

  it('does not push a conjunct that reads a non-deterministic expression, nor a non-deterministic conjunct', () => {
    const p = project(orders, [oId, random()], ['o_id', 'r']);
    const before = filter(p, and(lt(ref(1, 'DOUBLE', 'r'), lit(0.5, 'DOUBLE')), gt(ref(0, 'INTEGER', 'o_id'), int(3)), lt(random(), lit(0.1, 'DOUBLE'))));
    expect(show(pushDownFilter.rewrite(before))).toBe(
      `Filter(condition=[((r < 0.5) AND (random() < 0.1))])
  Project(exprs=[o_id, random()], names=[o_id, r])
    Filter(condition=[(o_id > 3)])
      Scan(table=[orders], version=[t_orders#1], filters=[(o_id > 3)])`);
  });

  it('splits conjuncts over an inner join by side and pushes one-sided ON conjuncts too', () => {
    const before = filter(ordersJoinCustomers('inner', and(eq(oCust, cId), eq(cRegion, str('EU')))), and(gt(oId, int(1)), eq(cRegion, str('EU')), lt(oId, ref(6, 'VARCHAR', 'c_name'))));
    expect(show(before)).toBe(
      `Filter(condition=[((o_id > 1) AND (c_region = 'EU') AND (o_id < c_name))])
  Join(type=[inner], condition=[((o_cust = c_id) AND (c_region = 'EU'))])
    Scan(table=[orders], version=[t_orders#1])
    Scan(table=[customers], version=[t_customers#1])`);
    expect(show(pushDownFilter.rewrite(before))).toBe(
      `Join(type=[inner], condition=[((o_cust = c_id) AND (o_id < c_name))])
  Filter(condition=[(o_id > 1)])
    Scan(table=[orders], version=[t_orders#1], filters=[(o_id > 1)])
  Filter(condition=[(c_region = 'EU')])
    Scan(table=[customers], version=[t_customers#1], filters=[(c_region = 'EU')])`);
  });

  it('turns a WHERE equality over a cross join into an inner join condition', () => {
    const before = filter(ordersJoinCustomers('cross', lit(true, 'BOOLEAN')), eq(oCust, cId));
    expect(show(before)).toBe(
      `Filter(condition=[(o_cust = c_id)])
  Join(type=[cross], condition=[true])
    Scan(table=[orders], version=[t_orders#1])
    Scan(table=[customers], version=[t_customers#1])`);
    expect(show(pushDownFilter.rewrite(before))).toBe(
      `Join(type=[inner], condition=[(o_cust = c_id)])
  Scan(table=[orders], version=[t_orders#1])
  Scan(table=[customers], version=[t_customers#1])`);
  });

  it('over a LEFT join, pushes only left-side conjuncts from above; right-only ON conjuncts go right', () => {
    const before = filter(ordersJoinCustomers('left', and(eq(oCust, cId), eq(cRegion, str('EU')), gt(oId, int(5)))), and(gt(oId, int(1)), eq(cRegion, str('US'))));
    expect(show(pushDownFilter.rewrite(before))).toBe(
      `Filter(condition=[(c_region = 'US')])
  Join(type=[left], condition=[((o_cust = c_id) AND (o_id > 5))])
    Filter(condition=[(o_id > 1)])
      Scan(table=[orders], version=[t_orders#1], filters=[(o_id > 1)])
    Filter(condition=[(c_region = 'EU')])
      Scan(table=[customers], version=[t_customers#1], filters=[(c_region = 'EU')])`);
  });

  it('over a RIGHT join, mirrors the left-join restrictions', () => {
    const before = filter(ordersJoinCustomers('right', and(eq(oCust, cId), gt(oId, int(5)))), and(gt(oId, int(1)), eq(cRegion, str('US'))));
    expect(show(pushDownFilter.rewrite(before))).toBe(
      `Filter(condition=[(o_id > 1)])
  Join(type=[right], condition=[(o_cust = c_id)])
    Filter(condition=[(o_id > 5)])
      Scan(table=[orders], version=[t_orders#1], filters=[(o_id > 5)])
    Filter(condition=[(c_region = 'US')])
      Scan(table=[customers], version=[t_customers#1], filters=[(c_region = 'US')])`);
  });

  it('over a FULL join, pushes nothing', () => {
    const before = filter(ordersJoinCustomers('full', and(eq(oCust, cId), gt(oId, int(5)))), and(gt(oId, int(1)), eq(cRegion, str('US'))));
    expect(pushDownFilter.rewrite(before)).toBe(before);
  });

  it('over semi and anti joins, pushes filters above into the left side; anti keeps left-only ON conjuncts', () => {
    const semi = filter(ordersJoinCustomers('semi', and(eq(oCust, cId), gt(oId, int(5)), eq(cRegion, str('EU')))), gt(oId, int(1)));
    expect(show(pushDownFilter.rewrite(semi))).toBe(
      `Join(type=[semi], condition=[(o_cust = c_id)])
  Filter(condition=[((o_id > 1) AND (o_id > 5))])
    Scan(table=[orders], version=[t_orders#1], filters=[(o_id > 1), (o_id > 5)])
  Filter(condition=[(c_region = 'EU')])
    Scan(table=[customers], version=[t_customers#1], filters=[(c_region = 'EU')])`);
    const anti = filter(ordersJoinCustomers('anti', and(eq(oCust, cId), gt(oId, int(5)), eq(cRegion, str('EU')))), gt(oId, int(1)));
    expect(show(pushDownFilter.rewrite(anti))).toBe(
      `Join(type=[anti], condition=[((o_cust = c_id) AND (o_id > 5))])
  Filter(condition=[(o_id > 1)])
    Scan(table=[orders], version=[t_orders#1], filters=[(o_id > 1)])
  Filter(condition=[(c_region = 'EU')])
    Scan(table=[customers], version=[t_customers#1], filters=[(c_region = 'EU')])`);
  });

  it('never moves a non-deterministic conjunct, above or in ON', () => {
    const before = filter(ordersJoinCustomers('inner', and(eq(oCust, cId), lt(random(), lit(0.5, 'DOUBLE')))), lt(random(), lit(0.5, 'DOUBLE')));
    expect(pushDownFilter.rewrite(before)).toBe(before);
  });

  it('pushes into every branch of a union', () => {
    const before = filter(union([orders, scan(ORDERS, undefined, undefined)], true), gt(oId, int(1)));
    expect(show(pushDownFilter.rewrite(before))).toBe(
      `Union(all=[true])
  Filter(condition=[(o_id > 1)])
    Scan(table=[orders], version=[t_orders#1], filters=[(o_id > 1)])
  Filter(condition=[(o_id > 1)])
    Scan(table=[orders], version=[t_orders#1], filters=[(o_id > 1)])`);
  });

  it('pushes through a Sort without fetch, but not through a top-k Sort', () => {
    const keys = [{ index: 0, desc: false, nullsFirst: false }];
    const plain = filter(sort(orders, keys), gt(oId, int(1)));
    expect(show(pushDownFilter.rewrite(plain))).toBe(
      `Sort(keys=[o_id ASC NULLS LAST])
  Filter(condition=[(o_id > 1)])
    Scan(table=[orders], version=[t_orders#1], filters=[(o_id > 1)])`);
    const topk = filter(sort(orders, keys, 10), gt(oId, int(1)));
    expect(pushDownFilter.rewrite(topk)).toBe(topk);
  });

  it('pushes only group-key conjuncts below an Aggregate', () => {
    const agg = aggregate(orders, [3], [{ fn: 'sum', args: [2], distinct: false, type: 'DOUBLE', name: 'total' }]);
    const before = filter(agg, and(eq(ref(0, 'VARCHAR', 'o_status'), str('open')), gt(ref(1, 'DOUBLE', 'total'), lit(100, 'DOUBLE'))));
    expect(show(before)).toBe(
      `Filter(condition=[((o_status = 'open') AND (total > 100))])
  Aggregate(group=[o_status], aggs=[sum(o_total) AS total])
    Scan(table=[orders], version=[t_orders#1])`);
    expect(show(pushDownFilter.rewrite(before))).toBe(
      `Filter(condition=[(total > 100)])
  Aggregate(group=[o_status], aggs=[sum(o_total) AS total])
    Filter(condition=[(o_status = 'open')])
      Scan(table=[orders], version=[t_orders#1], filters=[(o_status = 'open')])`);
  });

  it('pushes through Distinct', () => {
    const before = filter(distinct(orders), eq(oStatus, str('open')));
    expect(show(pushDownFilter.rewrite(before))).toBe(
      `Distinct()
  Filter(condition=[(o_status = 'open')])
    Scan(table=[orders], version=[t_orders#1], filters=[(o_status = 'open')])`);
  });

  it('copies conjuncts into a projected scan over table ordinals, keeps the Filter, and is idempotent', () => {
    const narrow = scan(ORDERS, [3, 0]);
    const before = filter(narrow, eq(ref(0, 'VARCHAR', 'o_status'), str('open')));
    const once = pushDownFilter.rewrite(before);
    expect(show(once)).toBe(
      `Filter(condition=[(o_status = 'open')])
  Scan(table=[orders], version=[t_orders#1], columns=[o_status, o_id], filters=[(o_status = 'open')])`);
    expect(once.kind === 'Filter' && once.input.kind === 'Scan' && once.input.pushedFilters![0]).toMatchObject({ args: [{ index: 3 }, { value: 'open' }] });
    expect(pushDownFilter.rewrite(once)).toBe(once);
  });

  it('copies conjuncts into a CacheSource over its original schema', () => {
    const src = cacheSource('cache-1', orders, [1, 2]);
    const before = filter(src, gt(ref(1, 'DOUBLE', 'o_total'), lit(10, 'DOUBLE')));
    expect(show(pushDownFilter.rewrite(before))).toBe(
      `Filter(condition=[(o_total > 10)])
  CacheSource(entry=[cache-1], columns=[o_cust, o_total], filters=[(o_total > 10)])`);
  });

  it('pushes all the way down through several nodes in one application', () => {
    const before = filter(project(ordersJoinCustomers('inner'), [oId, cRegion], ['o_id', 'c_region']), and(gt(ref(0, 'INTEGER', 'o_id'), int(1)), eq(ref(1, 'VARCHAR', 'c_region'), str('EU'))));
    expect(show(pushDownFilter.rewrite(before))).toBe(
      `Project(exprs=[o_id, c_region], names=[o_id, c_region])
  Join(type=[inner], condition=[(o_cust = c_id)])
    Filter(condition=[(o_id > 1)])
      Scan(table=[orders], version=[t_orders#1], filters=[(o_id > 1)])
    Filter(condition=[(c_region = 'EU')])
      Scan(table=[customers], version=[t_customers#1], filters=[(c_region = 'EU')])`);
  });
});
