import { describe, expect, it } from 'vitest';
import { filter, project, scan } from '../../../src/relnode/rel.js';
import { mergeProjects } from '../../../src/planner/rules/merge-projects.js';
import { gt, int, ORDERS, plus, random, ref, show } from '../plan-fixtures.js';

const orders = scan(ORDERS);
const oId = ref(0, 'INTEGER', 'o_id');
const oStatus = ref(3, 'VARCHAR', 'o_status');
const allOrderCols = [0, 1, 2, 3, 4].map((i) => ref(i, orders.schema.fields[i]!.type, orders.schema.fields[i]!.name));

describe('merge-projects', () => {
  it('inlines the inner expressions into the outer Project', () => {
    const before = project(project(orders, [plus(oId, int(1)), oStatus], ['x', 'st']), [ref(1, 'VARCHAR', 'st'), plus(ref(0, 'INTEGER', 'x'), int(2))], ['st', 'y']);
    expect(show(before)).toBe(
      `Project(exprs=[st, (x + 2)], names=[st, y])
  Project(exprs=[(o_id + 1), o_status], names=[x, st])
    Scan(table=[orders], version=[t_orders#1])`);
    expect(show(mergeProjects.rewrite(before))).toBe(
      `Project(exprs=[o_status, ((o_id + 1) + 2)], names=[st, y])
  Scan(table=[orders], version=[t_orders#1])`);
  });

  it('does not inline a non-deterministic inner expression the outer reads', () => {
    const before = project(project(orders, [random(), oStatus], ['r', 'st']), [ref(0, 'DOUBLE', 'r')], ['r']);
    expect(mergeProjects.rewrite(before)).toBe(before);
  });

  it('merges when the non-deterministic inner expression is not read (it was never observed)', () => {
    const before = project(project(orders, [random(), oStatus], ['r', 'st']), [ref(1, 'VARCHAR', 'st')], ['st']);
    expect(show(mergeProjects.rewrite(before))).toBe(
      `Project(exprs=[o_status], names=[st])
  Scan(table=[orders], version=[t_orders#1])`);
  });

  it('does not duplicate a computed inner expression the outer reads twice', () => {
    const before = project(project(orders, [plus(oId, int(1))], ['x']), [plus(ref(0, 'INTEGER', 'x'), ref(0, 'INTEGER', 'x'))], ['y']);
    expect(mergeProjects.rewrite(before)).toBe(before);
  });

  it('removes identity Projects (same columns, same names) but keeps renaming ones', () => {
    const identity = filter(project(orders, allOrderCols, orders.schema.fields.map((f) => f.name)), gt(oId, int(1)));
    expect(show(mergeProjects.rewrite(identity))).toBe(
      `Filter(condition=[(o_id > 1)])
  Scan(table=[orders], version=[t_orders#1])`);
    const renaming = project(orders, allOrderCols, ['a', 'o_cust', 'o_total', 'o_status', 'o_date']);
    expect(mergeProjects.rewrite(renaming)).toBe(renaming);
  });

  it('collapses a chain of Projects bottom-up, then drops the resulting identity', () => {
    const before = project(project(project(orders, [oStatus, oId], ['s', 'i']), [ref(1, 'INTEGER', 'i')], ['i']), [ref(0, 'INTEGER', 'i')], ['o_id']);
    expect(show(mergeProjects.rewrite(before))).toBe(
      `Project(exprs=[o_id], names=[o_id])
  Scan(table=[orders], version=[t_orders#1])`);
  });
});
