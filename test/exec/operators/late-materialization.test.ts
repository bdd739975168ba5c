/** Late materialization: Filter → [Project] stages read through a selection vector, FilterProject, and the fused hash aggregate. */
import { describe, expect, it } from 'vitest';
import { compileStage, DENSE_FRACTION } from '../../../src/exec/kernels/fused-stage.js';
import { createAggState } from '../../../src/exec/operators/agg-states.js';
import { filterOperator, filterProjectOperator } from '../../../src/exec/operators/filter.js';
import { compilePredicate } from '../../../src/exec/kernels/index.js';
import { hashAggregate } from '../../../src/exec/operators/hash-aggregate.js';
import { ExecutionError } from '../../../src/relnode/errors.js';
import { aggReturnType, type AggFn } from '../../../src/relnode/functions.js';
import type { AggCall } from '../../../src/relnode/rel.js';
import { call, inputRef, literal, type RexNode } from '../../../src/relnode/rex.js';
import { field, schemaOf, type Schema, type SqlType } from '../../../src/relnode/types.js';
import { batchOf, column, Harness, rowsOf, schema, sorted, valueAt } from '../helpers/fake-context.js';

const S = schema('a:INTEGER', 's:VARCHAR', 'd:DOUBLE');
const a = inputRef(0, 'INTEGER');
const lt = (n: number): RexNode => call('lt', [a, literal(n, 'INTEGER')], 'BOOLEAN');
const rows = (n: number): (number | string | null)[][] => Array.from({ length: n }, (_, i) => [i, i % 3 === 0 ? null : `s${i % 4}`, i % 5 === 0 ? null : i / 2]);

function selectedRows(cols: readonly import('apache-arrow').Data[], sel: Int32Array | null, m: number): unknown[][] {
  const out: unknown[][] = [];
  for (let j = 0; j < m; j++) out.push(cols.map((c) => valueAt(c, sel === null ? j : sel[j]!)));
  return out;
}

describe('compileStage', () => {
  const times = call('times', [a, literal(2, 'INTEGER')], 'INTEGER');
  const exprs: RexNode[] = [inputRef(1, 'VARCHAR'), times];

  it('dense: keeps the selection, passes referenced columns through and computes over the whole batch', () => {
    const b = batchOf(S, rows(20));
    const s = compileStage(lt(15), exprs, S)(b)!;
    expect(15 / 20).toBeGreaterThanOrEqual(DENSE_FRACTION);
    expect(s.length).toBe(15);
    expect(s.sel).not.toBeNull();
    expect(s.columns[0]).toBe(b.data.children[1]);
    expect(s.columns[1]!.length).toBe(20);
    expect(selectedRows(s.columns, s.sel, s.length)).toEqual(rows(15).map((r) => [r[1], (r[0] as number) * 2]));
  });

  it('sparse: gathers the projection inputs once and drops the selection', () => {
    const b = batchOf(S, rows(40));
    const s = compileStage(lt(3), exprs, S)(b)!;
    expect(s.sel).toBeNull();
    expect(s.length).toBe(3);
    expect(s.columns.every((c) => c.length === 3)).toBe(true);
    expect(selectedRows(s.columns, s.sel, s.length)).toEqual([[null, 0], ['s1', 2], ['s2', 4]]);
  });

  it('null when no row survives; no selection when every row does', () => {
    const b = batchOf(S, rows(10));
    expect(compileStage(lt(0), exprs, S)(b)).toBeNull();
    const all = compileStage(lt(100), undefined, S)(b)!;
    expect(all.sel).toBeNull();
    expect(all.columns).toBe(b.data.children);
  });

  it('raises an overflow only for rows the filter keeps (dense and sparse)', () => {
    // a * 1e9 overflows INTEGER from a = 3 on; the filter keeps a < 3.
    const big = [call('times', [a, literal(1_000_000_000, 'INTEGER')], 'INTEGER')];
    for (const n of [4, 40]) {
      const b = batchOf(S, rows(n));
      const s = compileStage(lt(3), big, S)(b)!;
      expect(selectedRows(s.columns, s.sel, s.length)).toEqual([[0], [1_000_000_000], [2_000_000_000]]);
      expect(() => compileStage(lt(4), big, S)(b)).toThrow(ExecutionError);
    }
  });
});

describe('filterOperator with a used-column mask', () => {
  it('copies only the used columns of the surviving rows; the others are all-NULL placeholders', () => {
    const h = new Harness(filterOperator(compilePredicate(lt(5), S), [false, true, true]), S, [S]);
    const all = batchOf(S, rows(3));
    h.push(0, batchOf(S, rows(8))).push(0, all).finish();
    const [first, second] = h.ctx.emitted.map((e) => e.batch);
    expect(String(first!.data.children[0]!.type)).toBe('Null');
    expect(rowsOf([first!])).toEqual(rows(5).map((r) => [null, r[1], r[2]]));
    expect(second).toBe(all); // every row passes: the batch goes through untouched
  });
});

describe('filterProjectOperator', () => {
  it('emits only the projected columns of the surviving rows, no empty batches, epochs kept', () => {
    const out = schema('s:VARCHAR', 'a2:INTEGER');
    const stage = compileStage(lt(5), [inputRef(1, 'VARCHAR'), call('plus', [a, a], 'INTEGER')], S);
    const h = new Harness(filterProjectOperator(stage), out, [S]);
    h.push(0, batchOf(S, rows(8)), 1).push(0, batchOf(S, [[9, 'x', 1]]), 2).finish();
    expect(h.epochs()).toEqual([1]);
    expect(h.ctx.emitted[0]!.batch.numCols).toBe(2);
    expect(rowsOf(h.ctx.emitted.map((e) => e.batch))).toEqual(rows(5).map((r) => [r[1], 2 * (r[0] as number)]));
  });
});

function agg(fn: AggFn, arg: number | undefined, input: Schema): AggCall {
  const t = arg === undefined ? undefined : input.fields[arg]!.type;
  return { fn, args: arg === undefined ? [] : [arg], distinct: false, type: aggReturnType(fn, t) as SqlType, name: `${fn}_${arg ?? 'star'}` };
}

describe('hashAggregate over a fused stage', () => {
  // Aggregate input = Project(s, d, a * 2) of Filter(a < k): keys s, args d and a * 2.
  const P = schema('s:VARCHAR', 'd:DOUBLE', 'a2:INTEGER');
  const projected = (r: (number | string | null)[]): (number | string | null)[] => [r[1]!, r[2]!, (r[0] as number) * 2];
  const calls = [agg('count_star', undefined, P), agg('count', 1, P), agg('sum', 1, P), agg('avg', 1, P), agg('min', 1, P), agg('sum', 2, P), agg('max', 0, P)];
  const out = schemaOf([P.fields[0]!, ...calls.map((c) => field(c.name, c.type))]);

  for (const [k, dict] of [[30, []], [30, [1]], [4, []], [4, [1]]] as const) {
    it(`matches the aggregate over materialized filtered rows (keep a < ${k} of 40${dict.length ? ', dictionary keys' : ''})`, () => {
      const data = [rows(40), rows(40).map((r) => [(r[0] as number) + 40, r[1]!, r[2]!])];
      const stage = compileStage(lt(k), [inputRef(1, 'VARCHAR'), inputRef(2, 'DOUBLE'), call('times', [a, literal(2, 'INTEGER')], 'INTEGER')], S);
      const fused = new Harness(hashAggregate({ groupKeys: [0], aggCalls: calls, input: { stage, schema: P } }), out, [S]);
      for (const d of data) fused.push(0, batchOf(S, d, [...dict]));
      const plain = new Harness(hashAggregate({ groupKeys: [0], aggCalls: calls }), out, [P]);
      for (const d of data) {
        const kept = d.filter((r) => (r[0] as number) < k).map(projected);
        if (kept.length > 0) plain.push(0, batchOf(P, kept));
      }
      expect(sorted(fused.finish().rows())).toEqual(sorted(plain.finish().rows()));
      expect(fused.rows().length).toBeGreaterThan(0);
    });
  }

  it('a global aggregate reads through the selection too (and answers empty input with one row)', () => {
    const stage = compileStage(lt(30), [inputRef(2, 'DOUBLE')], S);
    const Q = schema('d:DOUBLE');
    const gcalls = [agg('count_star', undefined, Q), agg('sum', 0, Q), agg('count', 0, Q)];
    const h = new Harness(hashAggregate({ groupKeys: [], aggCalls: gcalls, input: { stage, schema: Q } }), schemaOf(gcalls.map((c) => field(c.name, c.type))), [S]);
    h.push(0, batchOf(S, rows(40))).finish();
    const kept = rows(30).map((r) => r[2] as number | null);
    expect(h.rows()).toEqual([[30n, kept.reduce<number>((x, y) => x + (y ?? 0), 0), BigInt(kept.filter((x) => x !== null).length)]]);
    const none = new Harness(hashAggregate({ groupKeys: [], aggCalls: gcalls, input: { stage: compileStage(lt(0), undefined, S), schema: S } }), schemaOf(gcalls.map((c) => field(c.name, c.type))), [S]);
    expect(none.push(0, batchOf(S, rows(5))).finish().rows()).toEqual([[0n, null, 0n]]);
  });
});

describe('AggState.addSelected', () => {
  it('sum/avg/count read rows sel[j] into gids[j], skipping NULLs, as add over gathered rows does', () => {
    const vals = [1.5, null, 2.5, 4, null, -3, 8];
    const d = column('DOUBLE', vals);
    const sel = Int32Array.from([0, 1, 3, 4, 6]);
    const gids = Int32Array.from([0, 1, 1, 0, 1]);
    for (const fn of ['sum', 'avg', 'count'] as const) {
      const call = agg(fn, 0, schema('d:DOUBLE'));
      const st = createAggState(call, ['DOUBLE']);
      st.resize(2);
      expect(st.addSelected).toBeDefined();
      st.addSelected!([d], gids, sel, sel.length);
      const ref = createAggState(call, ['DOUBLE']);
      ref.resize(2);
      ref.add([column('DOUBLE', [...sel].map((i) => vals[i]!))], gids, sel.length);
      const v = st.value(0, 2);
      const r = ref.value(0, 2);
      expect([valueAt(v, 0), valueAt(v, 1)]).toEqual([valueAt(r, 0), valueAt(r, 1)]);
    }
  });
});

describe('stage selection buffer', () => {
  it('is reused from batch to batch, and every batch still aggregates its own rows', () => {
    const stage = compileStage(lt(6), undefined, S);
    const s1 = stage(batchOf(S, rows(10)))!;
    const first = Array.from(s1.sel!);
    const s2 = stage(batchOf(S, rows(9).map((r) => [(r[0] as number) + 3, r[1]!, r[2]!])))!;
    expect(s2.sel!.buffer).toBe(s1.sel!.buffer);
    expect(first).toEqual([0, 1, 2, 3, 4, 5]);
    expect(Array.from(s2.sel!)).toEqual([0, 1, 2]);
  });
});
