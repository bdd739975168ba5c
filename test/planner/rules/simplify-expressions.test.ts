import { describe, expect, it, vi } from 'vitest';
import * as kernels from '../../../src/exec/kernels/index.js';
import { filter, join, project, scan } from '../../../src/relnode/rel.js';
import { call, cast, caseWhen } from '../../../src/relnode/rex.js';
import { simplifyExpressions } from '../../../src/planner/rules/simplify-expressions.js';
import { and, CUSTOMERS, eq, FALSE, gt, int, lit, lt, not, now, NULL_BOOL, or, ORDERS, plus, random, ref, show, str, TRUE } from '../plan-fixtures.js';

// The real kernels' evaluateConstant, wrapped so one test can make it throw.
vi.mock('../../../src/exec/kernels/index.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/exec/kernels/index.js')>();
  return { ...real, evaluateConstant: vi.fn(real.evaluateConstant) };
});

const orders = scan(ORDERS);
const oId = ref(0, 'INTEGER', 'o_id');
const oCust = ref(1, 'INTEGER', 'o_cust');
const oStatus = ref(3, 'VARCHAR', 'o_status');

describe('simplify-expressions', () => {
  it('folds deterministic calls and casts over literals', () => {
    const before = project(orders, [plus(int(1), int(2)), call('upper', [str('ab')], 'VARCHAR'), cast(str('42'), 'INTEGER'), plus(oId, plus(int(1), int(2)))], ['three', 'up', 'n', 'shifted']);
    expect(show(before)).toBe(
      `Project(exprs=[(1 + 2), upper('ab'), CAST('42' AS INTEGER), (o_id + (1 + 2))], names=[three, up, n, shifted])
  Scan(table=[orders], version=[t_orders#1])`);
    const after = simplifyExpressions.rewrite(before);
    expect(show(after)).toBe(
      `Project(exprs=[3, 'AB', 42, (o_id + 3)], names=[three, up, n, shifted])
  Scan(table=[orders], version=[t_orders#1])`);
    expect(after.schema.fields.map((f) => f.type)).toEqual(before.schema.fields.map((f) => f.type));
  });

  it('simplifies AND/OR with TRUE/FALSE, flattens, removes duplicate conjuncts and double negation', () => {
    const before = filter(orders, and(gt(oId, int(1)), TRUE, and(not(not(eq(oCust, int(7)))), gt(oId, int(1))), or(lt(oId, int(9)), FALSE)));
    const after = simplifyExpressions.rewrite(before);
    expect(show(after)).toBe(
      `Filter(condition=[((o_id > 1) AND (o_cust = 7) AND (o_id < 9))])
  Scan(table=[orders], version=[t_orders#1])`);
  });

  it('collapses to the absorbing literal: x AND FALSE → FALSE, x OR TRUE → TRUE (and Filter(TRUE) disappears)', () => {
    const f1 = filter(orders, and(gt(oId, int(1)), FALSE));
    expect(show(simplifyExpressions.rewrite(f1))).toBe(
      `Filter(condition=[false])
  Scan(table=[orders], version=[t_orders#1])`);
    const f2 = filter(orders, or(gt(oId, int(1)), TRUE));
    expect(show(f2)).toBe(
      `Filter(condition=[((o_id > 1) OR true)])
  Scan(table=[orders], version=[t_orders#1])`);
    expect(show(simplifyExpressions.rewrite(f2))).toBe('Scan(table=[orders], version=[t_orders#1])');
  });

  it('keeps NULL operands of AND/OR (NULL AND x is not x) but drops duplicates of them', () => {
    const before = filter(orders, and(gt(oId, int(1)), NULL_BOOL, NULL_BOOL, TRUE));
    expect(show(simplifyExpressions.rewrite(before))).toBe(
      `Filter(condition=[((o_id > 1) AND NULL)])
  Scan(table=[orders], version=[t_orders#1])`);
  });

  it('folds a filter of constants to a literal, so remove-empty-relations can drop it', () => {
    const before = filter(orders, lt(int(2), int(1)));
    expect(show(simplifyExpressions.rewrite(before))).toBe(
      `Filter(condition=[false])
  Scan(table=[orders], version=[t_orders#1])`);
  });

  it('prunes CASE branches with constant conditions', () => {
    const c1 = caseWhen([{ when: FALSE, then: int(1) }, { when: gt(oId, int(3)), then: int(2) }, { when: TRUE, then: int(3) }, { when: gt(oId, int(5)), then: int(4) }], int(5), 'INTEGER');
    const c2 = caseWhen([{ when: NULL_BOOL, then: str('a') }, { when: TRUE, then: str('b') }], str('c'), 'VARCHAR');
    const before = project(orders, [c1, c2], ['c1', 'c2']);
    expect(show(before)).toBe(
      `Project(exprs=[CASE WHEN false THEN 1 WHEN (o_id > 3) THEN 2 WHEN true THEN 3 WHEN (o_id > 5) THEN 4 ELSE 5 END, CASE WHEN NULL THEN 'a' WHEN true THEN 'b' ELSE 'c' END], names=[c1, c2])
  Scan(table=[orders], version=[t_orders#1])`);
    expect(show(simplifyExpressions.rewrite(before))).toBe(
      `Project(exprs=[CASE WHEN (o_id > 3) THEN 2 ELSE 3 END, 'b'], names=[c1, c2])
  Scan(table=[orders], version=[t_orders#1])`);
  });

  it('leaves x = x alone (it is NULL, not TRUE, when x is NULL)', () => {
    const before = filter(orders, eq(oCust, oCust));
    expect(simplifyExpressions.rewrite(before)).toBe(before);
  });

  it('never folds or deduplicates random() and now()', () => {
    const r = lt(random(), lit(0.5, 'DOUBLE'));
    const before = project(filter(orders, and(r, r)), [oId, now()], ['o_id', 'ts']);
    const after = simplifyExpressions.rewrite(before);
    expect(after).toBe(before);
    expect(show(after)).toBe(
      `Project(exprs=[o_id, now()], names=[o_id, ts])
  Filter(condition=[((random() < 0.5) AND (random() < 0.5))])
    Scan(table=[orders], version=[t_orders#1])`);
  });

  it('leaves an expression unfolded when evaluateConstant throws', () => {
    vi.mocked(kernels.evaluateConstant).mockImplementationOnce(() => { throw new Error('integer overflow'); });
    const before = project(orders, [plus(int(2147483647), int(1))], ['big']);
    expect(simplifyExpressions.rewrite(before)).toBe(before);
  });

  it('widens INTEGER and NULL literals without the kernels (the casts of a long IN list), with the folded values', () => {
    const calls = vi.mocked(kernels.evaluateConstant).mock.calls.length;
    const before = project(orders, [cast(int(7), 'BIGINT'), cast(int(-3), 'DOUBLE'), cast(lit(null, 'INTEGER'), 'VARCHAR')], ['b', 'd', 'n']);
    const after = simplifyExpressions.rewrite(before);
    expect(vi.mocked(kernels.evaluateConstant).mock.calls.length).toBe(calls);
    const exprs = after.kind === 'Project' ? after.exprs : [];
    expect(exprs.map((e) => (e.kind === 'Literal' ? [e.value, e.type] : e.kind))).toEqual([[7n, 'BIGINT'], [-3, 'DOUBLE'], [null, 'VARCHAR']]);
  });

  it('simplifies join conditions and returns the same object when nothing changes', () => {
    const customers = scan(CUSTOMERS);
    const before = join(orders, customers, 'inner', and(eq(oCust, ref(5, 'INTEGER', 'c_id')), TRUE));
    expect(show(simplifyExpressions.rewrite(before))).toBe(
      `Join(type=[inner], condition=[(o_cust = c_id)])
  Scan(table=[orders], version=[t_orders#1])
  Scan(table=[customers], version=[t_customers#1])`);
    const plain = filter(orders, gt(oStatus, str('a')));
    expect(simplifyExpressions.rewrite(plain)).toBe(plain);
  });
});
