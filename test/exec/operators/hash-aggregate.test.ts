import { describe, expect, it } from 'vitest';
import { hashAggregate } from '../../../src/exec/operators/hash-aggregate.js';
import { createAggState } from '../../../src/exec/operators/agg-states.js';
import { aggReturnType, type AggFn } from '../../../src/relnode/functions.js';
import type { AggCall } from '../../../src/relnode/rel.js';
import { field, schemaOf, type Schema, type SqlType } from '../../../src/relnode/types.js';
import { Harness, batchOf, column, schema, sorted, valueAt } from '../helpers/fake-context.js';

function agg(fn: AggFn, arg: number | undefined, input: Schema, distinct = false): AggCall {
  const t = arg === undefined ? undefined : input.fields[arg]!.type;
  const type = aggReturnType(fn, t) as SqlType;
  return { fn, args: arg === undefined ? [] : [arg], distinct, type, name: `${fn}${distinct ? '_d' : ''}_${arg ?? 'star'}` };
}

function run(input: Schema, groupKeys: number[], calls: AggCall[], batches: ReturnType<typeof batchOf>[], batchSize = 1024): Harness {
  const out = schemaOf([...groupKeys.map((k) => input.fields[k]!), ...calls.map((c) => field(c.name, c.type))]);
  const h = new Harness(hashAggregate({ groupKeys, aggCalls: calls }), out, [input], batchSize);
  for (const b of batches) h.push(0, b);
  return h.finish();
}

const IN = schema('k:VARCHAR', 'i:INTEGER', 'b:BIGINT', 'd:DOUBLE', 's:VARCHAR', 'dt:DATE', 'f:BOOLEAN', 'ts:TIMESTAMP');
const ROWS = [
  ['a', 1, 10n, 1.5, 'pear', 3, true, 5n],
  ['b', 2, 20n, 2.5, 'apple', 1, false, -5n],
  ['a', null, null, null, null, null, null, null],
  ['a', 3, 30n, 4.5, 'zebra', 2, false, 7n],
  [null, 5, 50n, 0.5, 'x', 9, true, 1n],
  ['b', 4, -20n, -2.5, 'Apple', -1, true, 0n],
];

describe('hashAggregate', () => {
  it('computes every aggregate per group, NULL keys grouped, NULL inputs ignored', () => {
    const calls: AggCall[] = [
      agg('count_star', undefined, IN), agg('count', 1, IN), agg('sum', 1, IN), agg('sum', 2, IN), agg('sum', 3, IN),
      agg('avg', 1, IN), agg('min', 4, IN), agg('max', 4, IN), agg('min', 5, IN), agg('max', 6, IN), agg('min', 7, IN),
      agg('max', 3, IN), agg('stddev', 3, IN),
    ];
    for (const dict of [[], [0, 4]]) {
      const h = run(IN, [0], calls, [batchOf(IN, ROWS.slice(0, 3), dict), batchOf(IN, ROWS.slice(3), dict)]);
      const rows = h.rows();
      expect(rows.map((r) => r.slice(0, 13))).toEqual([
        ['a', 3n, 2n, 4n, 40n, 6, 2, 'pear', 'zebra', 2, true, 5n, 4.5],
        ['b', 2n, 2n, 6n, 0n, 0, 3, 'Apple', 'apple', -1, true, -5n, 2.5],
        [null, 1n, 1n, 5n, 50n, 0.5, 5, 'x', 'x', 9, true, 1n, 0.5],
      ]);
      expect(rows[0]![13]).toBeCloseTo(Math.sqrt(4.5), 12);
      expect(rows[1]![13]).toBeCloseTo(Math.sqrt(12.5), 12);
      expect(rows[2]![13]).toBeNull(); // stddev of one row
    }
  });

  it('global aggregate over empty input: one row, count 0 and sum NULL', () => {
    const calls = [agg('count_star', undefined, IN), agg('count', 1, IN), agg('sum', 1, IN), agg('min', 4, IN), agg('avg', 3, IN)];
    const h = run(IN, [], calls, []);
    expect(h.rows()).toEqual([[0n, 0n, null, null, null]]);
    expect(h.epochs()).toEqual([0]);
  });

  it('grouped aggregate over empty input emits nothing', () => {
    expect(run(IN, [0], [agg('count_star', undefined, IN)], []).rows()).toEqual([]);
  });

  it('all-NULL group: sum/min/avg NULL, count 0', () => {
    const h = run(IN, [0], [agg('count', 1, IN), agg('sum', 1, IN), agg('min', 4, IN), agg('avg', 3, IN)], [batchOf(IN, [ROWS[2]!])]);
    expect(h.rows()).toEqual([['a', 0n, null, null, null]]);
  });

  it('sum over BIGINT is exact past 2^53 and across spills', () => {
    const S = schema('k:INTEGER', 'v:BIGINT', 'i:INTEGER');
    const big = 2n ** 53n;
    const rows = [[1, big, 2147483647], [1, 1n, 2147483647], [1, 1n, 2147483647], [2, -(2n ** 62n), -2147483648], [2, -(2n ** 62n), -2147483648], [2, 3n, 1]];
    const many = Array.from({ length: 5000 }, () => [3, 2n ** 50n + 1n, 2147483647]);
    const h = run(S, [0], [agg('sum', 1, S), agg('sum', 2, S)], [batchOf(S, rows), batchOf(S, many)]);
    expect(h.rows()).toEqual([
      [1, big + 2n, 3n * 2147483647n],
      [2, -(2n ** 63n) + 3n, -2n * 2147483648n + 1n],
      [3, 5000n * (2n ** 50n + 1n), 5000n * 2147483647n],
    ]);
  });

  it('sum overflowing BIGINT is an error', () => {
    const S = schema('v:BIGINT');
    expect(() => run(S, [], [agg('sum', 0, S)], [batchOf(S, [[2n ** 62n], [2n ** 62n]])])).toThrow(/overflowed BIGINT/);
  });

  it('DISTINCT aggregates count each value once per group', () => {
    const S = schema('k:INTEGER', 'v:INTEGER', 's:VARCHAR');
    const rows = [[1, 5, 'x'], [1, 5, 'x'], [1, 6, 'y'], [1, null, null], [2, 5, 'x'], [2, 5, 'y'], [1, 6, 'x']];
    const calls = [agg('count', 1, S, true), agg('sum', 1, S, true), agg('count', 2, S, true), agg('count', 1, S), agg('avg', 1, S, true)];
    const h = run(S, [0], calls, [batchOf(S, rows.slice(0, 4), [2]), batchOf(S, rows.slice(4), [2])]);
    expect(h.rows()).toEqual([[1, 2n, 11n, 2n, 4n, 5.5], [2, 1n, 5n, 2n, 2n, 5]]);
  });

  it('multi-column keys with dictionary strings, dates and booleans', () => {
    const S = schema('s:VARCHAR', 'dt:DATE', 'f:BOOLEAN', 'v:DOUBLE');
    const rows = [['x', 1, true, 1], ['x', 1, true, 2], ['y', 1, true, 3], ['x', 2, false, 4], ['x', 1, null, 5], ['x', 1, null, 6]];
    const h = run(S, [0, 1, 2], [agg('sum', 3, S)], [batchOf(S, rows.slice(0, 3), [0]), batchOf(S, rows.slice(3), [0])]);
    expect(h.rows()).toEqual([['x', 1, true, 3], ['y', 1, true, 3], ['x', 2, false, 4], ['x', 1, null, 11]]);
  });

  it('emits batches of at most batchSize rows', () => {
    const S = schema('k:INTEGER');
    const rows = Array.from({ length: 2500 }, (_, i) => [i % 1000]);
    const h = run(S, [0], [agg('count_star', undefined, S)], [batchOf(S, rows)], 300);
    expect(h.ctx.emitted.map((e) => e.batch.numRows)).toEqual([300, 300, 300, 100]);
    expect(h.rows().length).toBe(1000);
  });

  it('per-epoch state: watermark emits and clears epochs ≤ w, finish the rest', () => {
    const S = schema('k:INTEGER', 'v:INTEGER');
    const calls = [agg('sum', 1, S)];
    const out = schemaOf([S.fields[0]!, field('sum', 'BIGINT')]);
    const h = new Harness(hashAggregate({ groupKeys: [0], aggCalls: calls }), out, [S]);
    h.push(0, batchOf(S, [[1, 1], [2, 2]]), 0);
    h.push(0, batchOf(S, [[1, 10]]), 1);
    h.push(0, batchOf(S, [[1, 100]]), 0);
    expect(h.rows()).toEqual([]);
    h.watermark(0);
    expect(h.rows(0)).toEqual([[1, 101n], [2, 2n]]);
    expect(h.rows(1)).toEqual([]);
    h.push(0, batchOf(S, [[2, 20]]), 1);
    h.watermark(1);
    expect(h.rows(1)).toEqual([[1, 10n], [2, 20n]]);
    h.push(0, batchOf(S, [[3, 3]]), 2);
    h.finish();
    expect(h.rows(2)).toEqual([[3, 3n]]);
    expect(h.epochs()).toEqual([0, 1, 2]);
  });

  it('global aggregate per epoch: one row per epoch, epoch 0 row even without rows', () => {
    const S = schema('v:INTEGER');
    const out = schemaOf([field('c', 'BIGINT')]);
    const h = new Harness(hashAggregate({ groupKeys: [], aggCalls: [agg('count_star', undefined, S)] }), out, [S]);
    h.watermark(0);
    h.push(0, batchOf(S, [[1], [2]]), 1);
    h.watermark(1);
    h.finish();
    expect(h.ctx.emitted.map((e) => [e.epoch, ...h.rows(e.epoch)[0]!])).toEqual([[0, 0n], [1, 2n]]);
  });

  it('merge folds one state into another', () => {
    const S = schema('v:INTEGER', 's:VARCHAR');
    const calls = [agg('sum', 0, S), agg('stddev', 0, S), agg('max', 1, S), agg('count', 0, S)];
    const a = calls.map((c) => createAggState(c, [S.fields[c.args[0]!]!.type]));
    const b = calls.map((c) => createAggState(c, [S.fields[c.args[0]!]!.type]));
    for (const s of [...a, ...b]) s.resize(2);
    const cols = [column('INTEGER', [1, 2, 3]), column('VARCHAR', ['m', 'z', 'a'])];
    a.forEach((s, i) => s.add([cols[calls[i]!.args[0]!]!], Int32Array.from([0, 0, 1]), 3));
    b.forEach((s, i) => s.add([cols[calls[i]!.args[0]!]!], Int32Array.from([1, 0, 0]), 3));
    a.forEach((s, i) => s.merge(b[i]!, Int32Array.from([1, 0])));
    const vals = a.map((s) => { const d = s.value(0, 2); return [valueAt(d, 0), valueAt(d, 1)]; });
    // group 0 = {1, 2} + {1}; group 1 = {3} + {2, 3}
    expect(vals[0]).toEqual([4n, 8n]);
    expect(vals[1]![0]).toBeCloseTo(Math.sqrt(1 / 3), 12);
    expect(vals[1]![1]).toBeCloseTo(Math.sqrt(1 / 3), 12);
    expect(vals[2]).toEqual(['z', 'z']);
    expect(vals[3]).toEqual([3n, 3n]);
  });

  it('groups many distinct keys correctly (vs a Map)', () => {
    const S = schema('k:INTEGER', 'j:VARCHAR', 'v:INTEGER');
    const rows = Array.from({ length: 20000 }, (_, i) => [(i * 7919) % 3001, `s${i % 7}`, i]);
    const h = run(S, [0, 1], [agg('sum', 2, S), agg('count_star', undefined, S)], [batchOf(S, rows.slice(0, 7000)), batchOf(S, rows.slice(7000), [1])]);
    const expected = new Map<string, [number, string, bigint, bigint]>();
    for (const [k, j, v] of rows as [number, string, number][]) {
      const key = `${k}|${j}`;
      const e = expected.get(key) ?? [k, j, 0n, 0n];
      e[2] += BigInt(v); e[3] += 1n;
      expected.set(key, e);
    }
    expect(sorted(h.rows())).toEqual(sorted([...expected.values()]));
  });
});
