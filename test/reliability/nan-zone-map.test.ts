/**
 * Zone maps of cached data and NaN (issue #11, "NaN"): a batch's min/max
 * must never let a filter skip rows the total order of doubles keeps. A
 * batch without NaN has bounds; `x <> NaN`, `x < NaN`, `x <= NaN` are TRUE
 * for all its numbers, so it must be read. A batch holding a NaN has no
 * numeric bounds and is never skipped by them. Checked against DuckDB and on
 * the statistics directly.
 */
import { Field, Float64, makeData, RecordBatch, Schema, Struct, Table as ArrowTable, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import '../../src/index.js';
import { blockStats, provablyFalse } from '../../src/cache/stats.js';
import { call, inputRef, literal, type RexNode } from '../../src/relnode/rex.js';
import { useHarness } from '../diff/harness.js';
import { loadRows, type ColumnType } from '../helpers/duckdb.js';

const COLUMNS: Readonly<Record<string, ColumnType>> = { id: 'INTEGER', x: 'DOUBLE' };
/** Batches of 3 rows: [0, -0, 2] and [4, 5, -1] have bounds; [NaN, 1, inf] has none. */
const ROWS: readonly Record<string, unknown>[] = [
  { id: 1, x: 0 }, { id: 2, x: -0 }, { id: 3, x: 2 },
  { id: 4, x: NaN }, { id: 5, x: 1 }, { id: 6, x: Infinity },
  { id: 7, x: 4 }, { id: 8, x: 5 }, { id: 9, x: -1 },
];

const FILTERS = [
  "x <> 'nan'::DOUBLE", "x < 'nan'::DOUBLE", "x <= 'nan'::DOUBLE", "x = 'nan'::DOUBLE", "x > 'nan'::DOUBLE", "x >= 'nan'::DOUBLE",
  "x IN (7, 'nan'::DOUBLE)", "x NOT IN ('nan'::DOUBLE)", "x BETWEEN -5 AND 'nan'::DOUBLE", 'x = 0', 'x = -0.0', 'x > 3',
  "x >= 'inf'::DOUBLE",
];

describe('cached data: zone maps and NaN literals', () => {
  const h = useHarness({ tpch: false, env: { parallelism: 1, batchSize: 3 } });

  it('every filter returns what DuckDB returns, with the batches it may skip skipped', async () => {
    const batches: RecordBatch[] = [];
    for (let i = 0; i < ROWS.length; i += 3) batches.push(...(await h.env.fromRecords(ROWS.slice(i, i + 3), COLUMNS).collect()).batches);
    h.env.registerTable('raw', new ArrowTable(batches[0]!.schema, batches));
    await h.env.cacheTable('t', h.env.from('raw'));
    await loadRows(h.duck, 't', COLUMNS, ROWS);
    let skipped = 0;
    for (const f of FILTERS) {
      const q = `SELECT id FROM t WHERE ${f}`;
      const before = h.env.cacheManager.stats();
      await h.check(h.env.sql(q), q);
      skipped += h.env.cacheManager.stats().blocksSkipped - before.blocksSkipped;
    }
    // The statistics are in use: `x = NaN`, `x > NaN`, `x = 0`, `x > 3`... skip bounded batches.
    expect(skipped).toBeGreaterThan(0);
  });
});

describe('provablyFalse with NaN', () => {
  const schema = new Schema([new Field('x', new Float64(), true)]);
  const batch = (xs: number[]): RecordBatch => new RecordBatch(schema, makeData({
    type: new Struct(schema.fields), length: xs.length, nullCount: 0, children: [vectorFromArray(xs, new Float64()).data[0]!],
  }));
  const x = inputRef(0, 'DOUBLE', 'x');
  const cmp = (op: string, v: number): RexNode => call(op, [x, literal(v, 'DOUBLE')], 'BOOLEAN');
  const bounded = blockStats(batch([-0, 1, 2]));
  const withNaN = blockStats(batch([1, NaN, 2]));

  it('a bounded batch is read for <> NaN, < NaN, <= NaN and skipped for = NaN, > NaN, >= NaN', () => {
    expect(['ne', 'lt', 'le'].map((op) => provablyFalse(cmp(op, NaN), bounded))).toEqual([false, false, false]);
    expect(['eq', 'gt', 'ge'].map((op) => provablyFalse(cmp(op, NaN), bounded))).toEqual([true, true, true]);
    // NaN on the left: NaN > x is TRUE for every number.
    expect(provablyFalse(call('gt', [literal(NaN, 'DOUBLE'), x], 'BOOLEAN'), bounded)).toBe(false);
    expect(provablyFalse(call('in', [x, literal(NaN, 'DOUBLE')], 'BOOLEAN'), bounded)).toBe(true);
  });

  it('-0 and 0 are one bound', () => {
    expect(provablyFalse(cmp('eq', 0), bounded)).toBe(false);
    expect(provablyFalse(cmp('lt', 0), bounded)).toBe(true);
    expect(provablyFalse(cmp('lt', -0), bounded)).toBe(true);
  });

  it('a batch holding a NaN is never skipped by its bounds', () => {
    for (const op of ['eq', 'ne', 'lt', 'le', 'gt', 'ge']) {
      for (const v of [NaN, 5, 0]) expect(provablyFalse(cmp(op, v), withNaN), `${op} ${v}`).toBe(false);
    }
  });
});
