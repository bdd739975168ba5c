import { describe, expect, it } from 'vitest';
import { memorySource } from '../../src/io/memory.js';
import { batchFromRows } from '../../src/exec/operators/values.js';
import { estimateColumn, estimateRows } from '../../src/planner/estimate.js';
import { aggregate, filter, join, limit, project, scan, union, type TableRef } from '../../src/relnode/rel.js';
import { call, type RexNode } from '../../src/relnode/rex.js';
import { field, schemaOf } from '../../src/relnode/types.js';
import { and, eq, gt, int, lt, not, or, ref, str, TRUE } from './plan-fixtures.js';

/** t(k INTEGER 0..999 unique, g INTEGER 0..9, s VARCHAR 4 values, n INTEGER half NULL) */
const T_SCHEMA = schemaOf([field('k', 'INTEGER'), field('g', 'INTEGER'), field('s', 'VARCHAR'), field('n', 'INTEGER')]);
const T = memorySource([batchFromRows(Array.from({ length: 1000 }, (_, i) => [i, i % 10, ['a', 'b', 'c', 'd'][i % 4]!, i % 2 ? null : i]), T_SCHEMA)]);
/** u(fk INTEGER referencing t.k, 5000 rows over 500 keys) */
const U_SCHEMA = schemaOf([field('fk', 'INTEGER')]);
const U = memorySource([batchFromRows(Array.from({ length: 5000 }, (_, i) => [i % 500]), U_SCHEMA)]);

const ref_ = (name: string, source: typeof T, version = 1): TableRef => ({ id: name, name, version, schema: source.schema, handle: source });
const t = scan(ref_('t', T));
const u = scan(ref_('u', U));
const k = ref(0, 'INTEGER', 'k'), g = ref(1, 'INTEGER', 'g'), s = ref(2, 'VARCHAR', 's'), n = ref(3, 'INTEGER', 'n');
const rowsOf = (cond: RexNode): number => estimateRows(filter(t, cond));
const near = (x: number, want: number, tol = 0.1): void => expect(Math.abs(x - want) / want).toBeLessThan(tol);

describe('cardinality estimates', () => {
  it('start from the table statistics', () => {
    expect(estimateRows(t)).toBe(1000);
    near(estimateColumn(t, 0)!.ndv!, 1000, 0.05);
    expect(estimateColumn(t, 1)).toMatchObject({ ndv: 10, min: 0, max: 9 });
    expect(estimateColumn(t, 3)!.nullFrac).toBe(0.5);
  });

  it('filters: equality by distinct count, ranges by min/max, out-of-range literals, IN, AND/OR/NOT, IS NULL', () => {
    near(rowsOf(eq(g, int(3))), 100);
    near(rowsOf(eq(s, str('b'))), 250, 0.15);
    expect(rowsOf(eq(g, int(42)))).toBeLessThanOrEqual(1);
    expect(rowsOf(eq(s, str('zzz')))).toBeLessThanOrEqual(1);
    near(rowsOf(lt(k, int(250))), 250, 0.05);
    near(rowsOf(gt(k, int(899))), 100, 0.05);
    near(rowsOf(and(call('ge', [k, int(100)], 'BOOLEAN'), call('le', [k, int(199)], 'BOOLEAN'))), 100, 0.05); // BETWEEN: one interval
    near(rowsOf(call('in', [g, int(1), int(2), int(3)], 'BOOLEAN')), 300);
    near(rowsOf(and(eq(g, int(1)), eq(s, str('a')))), 25, 0.15);
    near(rowsOf(or(eq(g, int(1)), eq(g, int(2)))), 190);
    near(rowsOf(not(eq(g, int(1)))), 900);
    near(rowsOf(call('is_null', [n], 'BOOLEAN')), 500);
    near(rowsOf(call('is_not_null', [n], 'BOOLEAN')), 500);
    // Unknown shapes fall back to defaults, never to 0 or to the input.
    const other = rowsOf(call('like', [s, str('%x')], 'BOOLEAN'));
    expect(other).toBeGreaterThan(1);
    expect(other).toBeLessThan(1000);
  });

  it('joins: |L|·|R| / max(ndv of the keys); outer joins keep their preserved side; semi joins a fraction of the left', () => {
    const on = eq(ref(0, 'INTEGER'), ref(4, 'INTEGER'));
    near(estimateRows(join(t, u, 'inner', on)), 5000, 0.1); // 1000 · 5000 / 1000
    near(estimateRows(join(t, u, 'semi', on)), 500, 0.1); // half of t's keys appear in u
    expect(estimateRows(join(t, u, 'left', on))).toBeGreaterThanOrEqual(5000);
    expect(estimateRows(join(t, u, 'cross', TRUE))).toBe(5_000_000);
    // A filtered side: its key ndv is capped at its rows (100), then containment: 100 · 5000 / max(100, 500).
    near(estimateRows(join(filter(t, eq(g, int(3))), u, 'inner', on)), 1000, 0.15);
  });

  it('NOT IN\'s NULL-aware anti join is keyed on its equality, not read as an opaque OR', () => {
    // u NOT IN (t's keys below 100): u.fk = t.k OR u.fk IS NULL OR t.k IS NULL; u's 500 keys, 100 of them in the subquery.
    const fk = ref(0, 'INTEGER', 'fk'), tk = ref(1, 'INTEGER', 'k');
    const notIn = or(or(eq(fk, tk), call('is_null', [fk], 'BOOLEAN')), call('is_null', [tk], 'BOOLEAN'));
    const sub = filter(t, lt(k, int(100)));
    const est = estimateRows(join(u, project(sub, [k], ['k']), 'anti', notIn));
    near(est, 4000, 0.15); // 5000 · (1 − 100 / 500)
    // With one NULL test (the other side NOT NULL) it is still NOT IN's item, keyed alike.
    near(estimateRows(join(u, project(sub, [k], ['k']), 'anti', or(eq(fk, tk), call('is_null', [fk], 'BOOLEAN')))), 4000, 0.15);
    // An OR whose other branch is no NULL test of the compared columns is no NOT IN: the default half stays.
    near(estimateRows(join(u, project(sub, [k], ['k']), 'anti', or(eq(fk, tk), lt(fk, int(3))))), 2500, 0.1);
  });

  it('a filter with an IN list leaves at most its distinct literals as a column\'s distinct values', () => {
    const inList = filter(t, call('in', [g, int(1), int(2), int(2), int(3)], 'BOOLEAN'));
    expect(estimateColumn(inList, 1)!.ndv).toBe(3);
    expect(estimateRows(aggregate(inList, [1, 2], []))).toBeLessThanOrEqual(12); // 3 values of g × 4 of s
    // A list longer than the column's distinct values keeps the column's count; other columns are untouched.
    expect(estimateColumn(filter(t, call('in', [s, str('a'), str('b'), str('c'), str('d'), str('e')], 'BOOLEAN')), 2)!.ndv).toBeLessThanOrEqual(4);
    expect(estimateColumn(inList, 0)!.ndv).toBeGreaterThan(100); // k: capped by the filter's rows, not by the list
  });

  it('aggregates: product of the group keys’ distinct counts, capped by the input; limits and unions', () => {
    expect(estimateRows(aggregate(t, [1], []))).toBe(10);
    near(estimateRows(aggregate(t, [1, 2], [])), 40, 0.1);
    expect(estimateRows(aggregate(t, [0, 1], []))).toBeLessThanOrEqual(1000);
    expect(estimateRows(aggregate(t, [], []))).toBe(1);
    expect(estimateRows(limit(t, 7))).toBe(7);
    expect(estimateRows(union([t, t], true))).toBe(2000);
  });
});
