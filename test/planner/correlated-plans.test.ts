/** A correlated plan as built digests deterministically (cache substitution sees it before optimization); lowering rejects a Correlate. */
import { describe, expect, it } from 'vitest';
import { substituteCaches, type CacheLookup } from '../../src/planner/cache-substitution.js';
import { lower } from '../../src/planner/lower.js';
import { explainTree } from '../../src/relnode/explain.js';
import { InternalError } from '../../src/relnode/errors.js';
import { digest } from '../../src/relnode/digest.js';
import { correlate, filter, project } from '../../src/relnode/rel.js';
import { outerRef } from '../../src/relnode/rex.js';
import { eq, ref, TRUE } from './plan-fixtures.js';
import { countOfOrders, customers, exists, oCust, orders, scalar } from './rules/decorrelation-fixtures.js';

describe('correlated plans', () => {
  it('digest: equal when built twice, different when the outer column or the kind of subquery differs', () => {
    const build = (outer: number) => filter(customers, exists(filter(orders, eq(oCust, outerRef(outer, 'INTEGER')))));
    expect(digest(build(0))).toBe(digest(build(0)));
    expect(digest(build(0))).not.toBe(digest(build(1)));
    expect(digest(build(0))).toContain('^$0');
    const asValue = project(customers, [scalar(countOfOrders())], ['n']);
    expect(digest(asValue)).toBe(digest(project(customers, [scalar(countOfOrders())], ['n'])));
    expect(digest(asValue)).not.toBe(digest(project(customers, [ref(0, 'INTEGER')], ['n'])));
  });

  it('lowering a Correlate that survived optimization is an internal error', () => {
    const c = correlate(customers, filter(orders, eq(oCust, outerRef(0, 'INTEGER'))), 'semi', TRUE);
    expect(() => lower(c, { parallelism: 1 })).toThrow(InternalError);
    expect(() => lower(c, { parallelism: 1 })).toThrow(/survived optimization/);
  });

  it('cache substitution searches subquery plans but never caches a subtree that reads the outer query', () => {
    const lookup: CacheLookup = {
      cacheAllSubtrees: true, idFor: (n) => `e_${n.kind}`, entryFor: () => undefined, markFor: () => undefined, conflictOf: () => undefined, marks: () => [],
      isWriting: () => false, dropReason: () => undefined, describe: () => undefined,
    };
    const sub = filter(project(orders, [ref(1, 'INTEGER', 'o_cust')], ['o_cust']), eq(ref(0, 'INTEGER', 'o_cust'), outerRef(0, 'INTEGER', 'c_id')));
    const plan = filter(customers, exists(sub));
    const out = explainTree(substituteCaches(plan, lookup).plan);
    expect(out).toContain('EXISTS {Filter(condition=[(o_cust = ^c_id)]) <- CacheSink(entry=[e_Project])');
    expect(out).not.toContain('{CacheSink');
    expect(out.split('\n')[0]).toBe('CacheSink(entry=[e_Filter])');
  });
});
