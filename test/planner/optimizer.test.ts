import { describe, expect, it } from 'vitest';
import { digest } from '../../src/relnode/digest.js';
import { InternalError } from '../../src/relnode/errors.js';
import { aggregate, filter, join, limit, project, scan, sort, union, type RelNode } from '../../src/relnode/rel.js';
import { DEFAULT_RULES, FINAL_RULES, optimize } from '../../src/planner/optimizer.js';
import type { Rule } from '../../src/planner/rule.js';
import { and, CUSTOMERS, eq, gt, int, lit, lt, or, ORDERS, plus, random, ref, show, str, TRUE } from './plan-fixtures.js';

const orders = scan(ORDERS);
const customers = scan(CUSTOMERS);
const oId = ref(0, 'INTEGER', 'o_id');
const oCust = ref(1, 'INTEGER', 'o_cust');
const oTotal = ref(2, 'DOUBLE', 'o_total');
const oStatus = ref(3, 'VARCHAR', 'o_status');
const cId = ref(5, 'INTEGER', 'c_id');
const cName = ref(6, 'VARCHAR', 'c_name');
const cRegion = ref(7, 'VARCHAR', 'c_region');

/** SELECT c_name, o_total FROM orders, customers WHERE o_cust = c_id AND c_region = 'EU' AND o_total > 1 + 2 AND TRUE ORDER BY o_total DESC LIMIT 10 */
const topOrdersEu = limit(sort(project(
  filter(join(orders, customers, 'cross', TRUE), and(eq(oCust, cId), eq(cRegion, str('EU')), gt(oTotal, plus(int(1), int(2))), TRUE)),
  [cName, oTotal], ['c_name', 'o_total']), [{ index: 1, desc: true, nullsFirst: false }]), 10);

function optimizeTraced(plan: RelNode, rules?: readonly Rule[], maxPasses?: number): { plan: RelNode; steps: string[] } {
  const steps: string[] = [];
  const out = optimize(plan, rules, { ...(maxPasses ? { maxPasses } : {}), trace: (rule) => steps.push(rule) });
  return { plan: out, steps };
}

describe('optimize', () => {
  it('runs the default rules in their documented order', () => {
    expect(DEFAULT_RULES.map((r) => r.name)).toEqual([
      'remove-subqueries', 'decorrelate-uncorrelated', 'decorrelate-existence', 'decorrelate-mark-existence', 'decorrelate-lateral', 'decorrelate-scalar-aggregate', 'decorrelate-domain',
      'simplify-expressions', 'merge-filters', 'simplify-outer-joins', 'push-down-filter', 'reorder-joins', 'derive-join-filters', 'aggregate-below-join', 'reduce-group-keys', 'merge-projects', 'push-down-limit', 'prune-columns', 'remove-empty-relations',
    ]);
    for (const r of DEFAULT_RULES) expect(r.description.length).toBeGreaterThan(20);
    expect(FINAL_RULES.map((r) => r.name)).toEqual(['expand-or-joins', 'join-key-expressions', 'swap-range-joins']);
  });

  it('folds, turns a cross join into an inner join, pushes filters, makes a top-k sort and prunes scans', () => {
    expect(show(topOrdersEu)).toBe(
      `Limit(fetch=[10])
  Sort(keys=[o_total DESC NULLS LAST])
    Project(exprs=[c_name, o_total], names=[c_name, o_total])
      Filter(condition=[((o_cust = c_id) AND (c_region = 'EU') AND (o_total > (1 + 2)) AND true)])
        Join(type=[cross], condition=[true])
          Scan(table=[orders], version=[t_orders#1])
          Scan(table=[customers], version=[t_customers#1])`);
    const { plan, steps } = optimizeTraced(topOrdersEu);
    expect(show(plan)).toBe(
      `Sort(keys=[o_total DESC NULLS LAST], fetch=[10])
  Project(exprs=[c_name, o_total], names=[c_name, o_total])
    Join(type=[inner], condition=[(o_cust = c_id)])
      Filter(condition=[(o_total > 3)])
        Scan(table=[orders], version=[t_orders#1], columns=[o_cust, o_total], filters=[(o_total > 3)])
      Filter(condition=[(c_region = 'EU')])
        Scan(table=[customers], version=[t_customers#1], filters=[(c_region = 'EU')])`);
    expect(steps).toEqual(['simplify-expressions', 'push-down-filter', 'push-down-limit', 'prune-columns']);
    expect(plan.schema).toEqual(topOrdersEu.schema);
  });

  it('keeps a filter on the null-supplying side of a left join above the join', () => {
    // (c_region = 'EU' OR o_id = 5) keeps padded rows with o_id = 5: the join stays a left join.
    const before = project(filter(join(orders, customers, 'left', eq(oCust, cId)), and(or(eq(cRegion, str('EU')), eq(oId, int(5))), gt(oId, int(5)))), [oId, cName], ['o_id', 'c_name']);
    expect(show(optimize(before))).toBe(
      `Project(exprs=[o_id, c_name], names=[o_id, c_name])
  Filter(condition=[((c_region = 'EU') OR (o_id = 5))])
    Join(type=[left], condition=[(o_cust = c_id)])
      Filter(condition=[(o_id > 5)])
        Scan(table=[orders], version=[t_orders#1], columns=[o_id, o_cust], filters=[(o_id > 5)])
      Scan(table=[customers], version=[t_customers#1])`);
  });

  it('keeps a filter on random() above the Project that computes it', () => {
    const before = aggregate(
      filter(project(orders, [oStatus, oTotal, random()], ['s', 't', 'r']), and(lt(ref(2, 'DOUBLE', 'r'), lit(0.5, 'DOUBLE')), eq(ref(0, 'VARCHAR', 's'), str('open')))),
      [0], [{ fn: 'sum', args: [1], distinct: false, type: 'DOUBLE', name: 'total' }]);
    expect(show(optimize(before))).toBe(
      `Aggregate(group=[s], aggs=[sum(t) AS total])
  Filter(condition=[(r < 0.5)])
    Project(exprs=[o_status, o_total, random()], names=[s, t, r])
      Filter(condition=[(o_status = 'open')])
        Scan(table=[orders], version=[t_orders#1], columns=[o_total, o_status], filters=[(o_status = 'open')])`);
  });

  it('removes empty branches across passes: a constant-false filter and LIMIT 0', () => {
    const before = project(union([filter(orders, lt(int(2), int(1))), limit(orders, 0), filter(orders, gt(oId, int(3)))], true), [oStatus], ['o_status']);
    const { plan, steps } = optimizeTraced(before);
    expect(show(plan)).toBe(
      `Project(exprs=[o_status], names=[o_status])
  Filter(condition=[(o_id > 3)])
    Scan(table=[orders], version=[t_orders#1], columns=[o_id, o_status], filters=[(o_id > 3)])`);
    expect(steps).toEqual(['simplify-expressions', 'push-down-filter', 'push-down-limit', 'prune-columns', 'remove-empty-relations', 'merge-projects']);
  });

  it('reduces a query whose WHERE folds to FALSE to an empty relation with the same schema', () => {
    const before = project(filter(join(orders, customers, 'inner', eq(oCust, cId)), eq(int(1), int(2))), [oId], ['o_id']);
    const after = optimize(before);
    expect(show(after)).toBe('Values(rows=[], types=[INTEGER])');
    expect(after.schema.fields.map((f) => [f.name, f.type])).toEqual([['o_id', 'INTEGER']]);
  });

  it('is idempotent: optimizing an optimized plan changes nothing (no rule even returns a new object)', () => {
    for (const p of [topOrdersEu, project(filter(join(orders, customers, 'semi', eq(oCust, cId)), gt(oId, int(1))), [oStatus], ['s'])]) {
      const once = optimize(p);
      const { plan, steps } = optimizeTraced(once);
      expect(steps).toEqual([]);
      expect(plan).toBe(once);
    }
  });

  it('throws InternalError naming the rule when a rule changes the output schema', () => {
    const dropLastColumn: Rule = {
      name: 'broken-drop-column',
      description: 'Deliberately broken: drops the last output column of the root.',
      rewrite: (n) => project(n, n.schema.fields.slice(0, -1).map((f, i) => ref(i, f.type, f.name)), n.schema.fields.slice(0, -1).map((f) => f.name)),
    };
    const plan = project(orders, [oId, oStatus], ['o_id', 'o_status']);
    expect(() => optimize(plan, [...DEFAULT_RULES, dropLastColumn])).toThrow(InternalError);
    expect(() => optimize(plan, [dropLastColumn])).toThrow(/optimizer rule "broken-drop-column" changed the plan's output schema from \(o_id INTEGER, o_status VARCHAR\) to \(o_id INTEGER\)/);
    const rename: Rule = {
      name: 'broken-rename',
      description: 'Deliberately broken: renames the first output column.',
      rewrite: (n) => project(n, n.schema.fields.map((f, i) => ref(i, f.type, f.name)), n.schema.fields.map((f, i) => (i === 0 ? 'renamed' : f.name))),
    };
    expect(() => optimize(plan, [rename])).toThrow(/"broken-rename"/);
  });

  it('stops at the digest fixpoint: one extra pass confirms nothing changed', () => {
    let passes = 0;
    const countPasses: Rule = { name: 'count-passes', description: 'Test probe: counts passes, changes nothing.', rewrite: (n) => { passes++; return n; } };
    optimize(topOrdersEu, [countPasses, ...DEFAULT_RULES]);
    // Pass 1 rewrites; pass 2 finds the digest unchanged and stops.
    expect(passes).toBe(2);
  });

  it('treats a rule that rebuilds an equal plan as unchanged (digest, not identity)', () => {
    let calls = 0;
    const rebuild: Rule = { name: 'rebuild', description: 'Test probe: returns a structurally equal copy.', rewrite: (n) => { calls++; return { ...n } as RelNode; } };
    const plan = filter(orders, gt(oId, int(1)));
    const out = optimize(plan, [rebuild]);
    // The first pass compares no digests (the second decides: for most plans it changes nothing and needs none).
    expect(calls).toBe(2);
    expect(digest(out)).toBe(digest(plan));
  });

  it('treats rebuilt plans that differ only in inner display names as unchanged, and a changed deep expression as changed', () => {
    // Project(Filter(Project(orders))) whose inner Project's output name flips between 'a' and 'b' on every call
    // (the root's names stay): equal digests.
    const inner = (name: string, k: number): RelNode => project(
      filter(project(orders, [oId, oTotal], [name, 't']), gt(ref(0, 'INTEGER', name), int(k))), [ref(0, 'INTEGER', name), ref(1, 'DOUBLE', 't')], ['x', 't']);
    let calls = 0;
    const rename: Rule = {
      name: 'rename-inner', description: 'Test probe: renames an inner column.',
      rewrite: (n) => { calls++; const p = ((n as { input: RelNode }).input as { input: RelNode }).input; return inner(p.schema.fields[0]!.name === 'a' ? 'b' : 'a', 1); },
    };
    optimize(inner('a', 1), [rename]);
    expect(calls).toBe(2);
    // The same rebuild with a literal deep in the condition alternating: never a fixpoint, maxPasses ends it.
    calls = 0;
    let k = 1;
    const bump: Rule = { name: 'bump-literal', description: 'Test probe: changes a literal deep in the plan.', rewrite: () => { calls++; k = 3 - k; return inner('a', k); } };
    optimize(inner('a', 1), [bump], { maxPasses: 6 });
    expect(calls).toBe(6);
  });

  it('gives up after maxPasses when rules never agree, returning a valid plan', () => {
    let calls = 0;
    const flip: Rule = {
      name: 'flip-limit',
      description: 'Test probe: oscillates between LIMIT 1 and LIMIT 2.',
      rewrite: (n) => { calls++; return n.kind === 'Limit' ? limit(n.input, n.fetch === 1 ? 2 : 1) : n; },
    };
    const out = optimize(limit(orders, 1), [flip], { maxPasses: 5 });
    expect(calls).toBe(5);
    expect(show(out)).toBe(
      `Limit(fetch=[2])
  Scan(table=[orders], version=[t_orders#1])`);
    calls = 0;
    optimize(limit(orders, 1), [flip]);
    expect(calls).toBe(20);
  });

  it('returns the plan itself with no rules', () => {
    expect(optimize(topOrdersEu, [])).toBe(topOrdersEu);
  });
});
