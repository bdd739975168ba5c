/** Unit tests of the streaming operators: filter, project, limit, union, values, and the scan adapter. */
import { describe, expect, it } from 'vitest';
import { compileExpr, compilePredicate } from '../../../src/exec/kernels/index.js';
import { filterOperator } from '../../../src/exec/operators/filter.js';
import { limitOperator } from '../../../src/exec/operators/limit.js';
import { projectOperator } from '../../../src/exec/operators/project.js';
import { unionOperator } from '../../../src/exec/operators/union.js';
import { valuesSource } from '../../../src/exec/operators/values.js';
import { memorySource } from '../../../src/io/memory.js';
import { tableScanSource } from '../../../src/planner/scan-source.js';
import { call, inputRef, literal } from '../../../src/relnode/rex.js';
import { batchOf, Harness, rowsOf, schema } from '../helpers/fake-context.js';

const S = schema('a:INTEGER', 's:VARCHAR');
const rows = [[1, 'x'], [2, null], [3, 'z'], [null, 'w']] as const;
const gt = (n: number) => call('gt', [inputRef(0, 'INTEGER'), literal(n, 'INTEGER')], 'BOOLEAN');

describe('filter', () => {
  it('keeps TRUE rows and drops NULL and FALSE ones', () => {
    const h = new Harness(filterOperator(compilePredicate(gt(1), S)), S, [S]);
    h.push(0, batchOf(S, rows.map((r) => [...r]))).finish();
    expect(rowsOf(h.ctx.emitted.map((e) => e.batch))).toEqual([[2, null], [3, 'z']]);
  });

  it('passes a batch where every row survives through untouched', () => {
    const h = new Harness(filterOperator(compilePredicate(gt(0), S)), S, [S]);
    const b = batchOf(S, [[1, 'x'], [2, 'y']]);
    h.push(0, b).finish();
    expect(h.ctx.emitted[0]!.batch).toBe(b);
  });

  it('emits nothing (no empty batch) when no row survives, and keeps epochs', () => {
    const h = new Harness(filterOperator(compilePredicate(gt(10), S)), S, [S]);
    h.push(0, batchOf(S, [[1, 'x']]), 0).push(0, batchOf(S, [[11, 'y']]), 3).finish();
    expect(h.ctx.emitted.map((e) => e.epoch)).toEqual([3]);
  });

  it('batches of growing and shrinking sizes through one instance: each output is its own rows (the selection scratch is reused)', () => {
    const h = new Harness(filterOperator(compilePredicate(gt(1), S)), S, [S]);
    const sizes = [3, 50, 7, 200, 1];
    const want: unknown[][] = [];
    sizes.forEach((n, b) => {
      const rs = Array.from({ length: n }, (_, i) => [(i * 7 + b) % 5, `b${b}r${i}`]);
      want.push(...rs.filter((r) => (r[0] as number) > 1));
      h.push(0, batchOf(S, rs));
    });
    h.finish();
    expect(rowsOf(h.ctx.emitted.map((e) => e.batch))).toEqual(want);
  });
});

describe('project', () => {
  it('computes expressions and passes column references through without copying', () => {
    const out = schema('s:VARCHAR', 'b:INTEGER');
    const k = [compileExpr(inputRef(1, 'VARCHAR'), S), compileExpr(call('times', [inputRef(0, 'INTEGER'), literal(10, 'INTEGER')], 'INTEGER'), S)];
    const h = new Harness(projectOperator(k), out, [S]);
    const b = batchOf(S, rows.map((r) => [...r]));
    h.push(0, b, 2).finish();
    const e = h.ctx.emitted[0]!;
    expect(e.epoch).toBe(2);
    expect(e.batch.data.children[0]).toBe(b.data.children[1]);
    expect(rowsOf([e.batch])).toEqual([['x', 10], [null, 20], ['z', 30], ['w', null]]);
  });
});

describe('limit', () => {
  it('skips the offset, takes fetch rows across batches, then says it is satisfied', () => {
    const h = new Harness(limitOperator(3, 2), S, [S]);
    h.push(0, batchOf(S, [[1, 'a'], [2, 'b'], [3, 'c']]));
    expect(h.ctx.satisfied).toBe(false);
    h.push(0, batchOf(S, [[4, 'd'], [5, 'e'], [6, 'f']]));
    expect(h.ctx.satisfied).toBe(true);
    expect(rowsOf(h.ctx.emitted.map((e) => e.batch))).toEqual([[3, 'c'], [4, 'd'], [5, 'e']]);
  });

  it('limit 0 is satisfied at once', () => {
    const h = new Harness(limitOperator(0, 0), S, [S]);
    expect(h.ctx.satisfied).toBe(true);
  });

  it('counts rows per epoch', () => {
    const h = new Harness(limitOperator(1, 0), S, [S], 1024, { multiEpoch: true });
    h.push(0, batchOf(S, [[1, 'a'], [2, 'b']]), 1).push(0, batchOf(S, [[3, 'c']]), 2).finish();
    expect(h.ctx.emitted.map((e) => [e.epoch, e.batch.numRows])).toEqual([[1, 1], [2, 1]]);
  });
});

describe('union', () => {
  it('forwards every input', () => {
    const h = new Harness(unionOperator(), S, [S, S]);
    h.push(0, batchOf(S, [[1, 'a']])).push(1, batchOf(S, [[2, 'b']]), 4).finish();
    expect(h.ctx.emitted.map((e) => e.epoch)).toEqual([0, 4]);
    expect(rowsOf(h.ctx.emitted.map((e) => e.batch))).toEqual([[1, 'a'], [2, 'b']]);
  });
});

describe('sources', () => {
  const ctx = (subtaskIndex: number, parallelism: number) => ({ name: 'S', subtaskIndex, parallelism, batchSize: 2, signal: new AbortController().signal, shared: <T>(): T => { throw new Error('unused'); } });

  it('values emits its rows from subtask 0 in batches of batchSize', async () => {
    const f = valuesSource([[1, 'a'], [2, 'b'], [3, null]], S);
    const s0 = await f(ctx(0, 2));
    const s1 = await f(ctx(1, 2));
    const got = [];
    for (let b = await s0.next(); b !== null; b = await s0.next()) got.push(b);
    expect(got.map((b) => ('numRows' in b ? b.numRows : 0))).toEqual([2, 1]);
    expect(await s1.next()).toBeNull();
  });

  it('a parallel scan reads each partition exactly once across subtasks, with the projection', async () => {
    const batches = [0, 1, 2, 3, 4].map((i) => batchOf(S, [[i, `r${i}`]]));
    const src = memorySource(batches);
    const seen: number[] = [];
    for (const sub of [0, 1, 2]) {
      const s = await tableScanSource(src, [0])(ctx(sub, 3));
      for (let b = await s.next(); b !== null; b = await s.next()) {
        const rb = 'numRows' in b ? b : ('batch' in b ? b.batch : undefined);
        expect(rb!.data.children).toHaveLength(1);
        seen.push(...rowsOf([rb!]).map((r) => r[0] as number));
      }
    }
    expect(seen.sort()).toEqual([0, 1, 2, 3, 4]);
  });
});
