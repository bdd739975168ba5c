import { describe, expect, it } from 'vitest';
import { filter, project, scan } from '../../../src/relnode/rel.js';
import { mergeFilters } from '../../../src/planner/rules/merge-filters.js';
import { eq, gt, int, lt, ORDERS, ref, show, str } from '../plan-fixtures.js';

const orders = scan(ORDERS);
const oId = ref(0, 'INTEGER', 'o_id');

describe('merge-filters', () => {
  it('merges a stack of filters into one AND, inner conjuncts first', () => {
    const before = filter(filter(filter(orders, gt(oId, int(1))), lt(oId, int(100))), eq(ref(3, 'VARCHAR', 'o_status'), str('open')));
    expect(show(before)).toBe(
      `Filter(condition=[(o_status = 'open')])
  Filter(condition=[(o_id < 100)])
    Filter(condition=[(o_id > 1)])
      Scan(table=[orders], version=[t_orders#1])`);
    expect(show(mergeFilters.rewrite(before))).toBe(
      `Filter(condition=[((o_id > 1) AND (o_id < 100) AND (o_status = 'open'))])
  Scan(table=[orders], version=[t_orders#1])`);
  });

  it('merges filters anywhere in the tree and leaves separated filters alone', () => {
    const separated = filter(project(filter(orders, gt(oId, int(1))), [oId], ['o_id']), lt(oId, int(9)));
    expect(mergeFilters.rewrite(separated)).toBe(separated);
    const nested = project(filter(filter(orders, gt(oId, int(1))), lt(oId, int(9))), [oId], ['o_id']);
    expect(show(mergeFilters.rewrite(nested))).toBe(
      `Project(exprs=[o_id], names=[o_id])
  Filter(condition=[((o_id > 1) AND (o_id < 9))])
    Scan(table=[orders], version=[t_orders#1])`);
  });
});
