import { describe, expect, it } from 'vitest';
import { correlate, filter, project } from '../../../src/relnode/rel.js';
import { call } from '../../../src/relnode/rex.js';
import { decorrelateMarkExistence } from '../../../src/planner/rules/decorrelate-mark-existence.js';
import { decorrelateExistence } from '../../../src/planner/rules/decorrelate-existence.js';
import { eq, ref, show, TRUE } from '../plan-fixtures.js';
import { big, countOfOrders, customers, oCust, ordersOf, outerId } from './decorrelation-fixtures.js';

describe('decorrelate-mark-existence', () => {
  it('EXISTS as a value: the distinct outer values semi-joined on the correlated conjuncts, left-joined back', () => {
    const before = correlate(customers, ordersOf(big), 'mark', TRUE);
    const after = show(decorrelateMarkExistence.rewrite(before));
    expect(after).not.toMatch(/Correlate/);
    expect(after).toMatch(/Join\(type=\[semi\], condition=\[\(o_cust = __domain0\)\]\)\n\s+Distinct\(\)\n\s+Project\(exprs=\[c_id\], names=\[__domain0\]\)/);
    expect(after).toMatch(/^Project\(exprs=\[[^\]]*\(__match IS NOT NULL\)\][^\n]*mark\]\)\n\s+Join\(type=\[left\]/);
    // The local conjunct stays below the semi join.
    expect(after).toMatch(/Filter\(condition=\[\(o_total > 100\)\]\)/);
  });

  it('reads correlated conjuncts through a Project between two Filters (a row IN over a correlated subquery)', () => {
    const sub = project(ordersOf(), [ref(2, 'DOUBLE', 'o_total')], ['o_total']);
    const test = filter(sub, call('or', [eq(ref(0, 'DOUBLE', 'o_total'), { kind: 'Literal', value: 5, type: 'DOUBLE' }), call('is_null', [outerId], 'BOOLEAN')], 'BOOLEAN'));
    const after = show(decorrelateMarkExistence.rewrite(correlate(customers, test, 'mark', TRUE)));
    expect(after).toMatch(/Join\(type=\[semi\], condition=\[\(\(o_cust = __domain0\) AND \(\(o_total = 5\) OR \(__domain0 IS NULL\)\)\)\]\)/);
    // The same shape as a WHERE conjunct: one anti join on both conjuncts.
    expect(show(decorrelateExistence.rewrite(correlate(customers, test, 'anti', TRUE)))).toMatch(/^Join\(type=\[anti\], condition=\[\(\(o_cust = c_id\) AND \(\(o_total = 5\) OR \(c_id IS NULL\)\)\)\]\)/);
  });

  it('leaves IN marks, correlation under an aggregate and other Correlates to the other rules', () => {
    const inMark = correlate(customers, project(ordersOf(), [oCust], ['o_cust']), 'mark', eq(ref(0, 'INTEGER', 'c_id'), ref(3, 'INTEGER', 'o_cust')));
    expect(decorrelateMarkExistence.rewrite(inMark)).toBe(inMark);
    const underAgg = correlate(customers, countOfOrders(), 'mark', TRUE);
    expect(decorrelateMarkExistence.rewrite(underAgg)).toBe(underAgg);
    const semi = correlate(customers, ordersOf(), 'semi', TRUE);
    expect(decorrelateMarkExistence.rewrite(semi)).toBe(semi);
  });
});
