import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HyperLogLog, hash32, hashNumber } from '../../src/exec/kernels/hyperloglog.js';
import { memorySource } from '../../src/io/memory.js';
import { parquetSource } from '../../src/io/parquet.js';
import { batchStatistics, columnStatistics, EXACT_STATISTICS_ROWS, exactStatistics, statisticsPasses } from '../../src/io/stats.js';
import { writeParquet } from '../../src/io/write.js';
import { batchFromRows } from '../../src/exec/operators/values.js';
import { field, schemaOf } from '../../src/relnode/types.js';
import type { LiteralValue } from '../../src/relnode/rex.js';
import { testTempDir } from '../helpers/temp-dir.js';

const SCHEMA = schemaOf([field('i', 'INTEGER'), field('d', 'DOUBLE'), field('s', 'VARCHAR'), field('day', 'DATE'), field('big', 'BIGINT'), field('b', 'BOOLEAN')]);

function rows(n: number): LiteralValue[][] {
  return Array.from({ length: n }, (_, k) => [
    k % 10 === 0 ? null : k % 100, // 100 values, 10% NULL
    k / 4,
    `name${k % 37}`,
    18_000 + (k % 5),
    BigInt(k) * 1_000_000n,
    k % 2 === 0,
  ]);
}

describe('HyperLogLog', () => {
  it('estimates distinct counts within a few percent', () => {
    for (const n of [10, 1000, 100_000]) {
      const h = new HyperLogLog();
      for (let k = 0; k < n; k++) h.add(hash32(k));
      for (let k = 0; k < n; k++) h.add(hash32(k)); // duplicates do not count
      expect(Math.abs(h.estimate() - n) / n).toBeLessThan(0.06);
    }
  });

  it('merges sketches as a union', () => {
    const a = new HyperLogLog(), b = new HyperLogLog();
    for (let k = 0; k < 5000; k++) a.add(hashNumber(k));
    for (let k = 2500; k < 7500; k++) b.add(hashNumber(k));
    a.merge(b);
    expect(Math.abs(a.estimate() - 7500) / 7500).toBeLessThan(0.06);
  });
});

describe('table statistics', () => {
  it('computes row count, min, max, nulls and distinct counts per column of in-memory batches', () => {
    const batches = [batchFromRows(rows(600), SCHEMA), batchFromRows(rows(1000).slice(600), SCHEMA)];
    const s = batchStatistics(batches);
    expect(s.rowCount).toBe(1000);
    const i = s.column(0);
    expect(i).toMatchObject({ nullCount: 100, min: 1, max: 99 });
    expect(Math.abs(i.distinct! - 90)).toBeLessThanOrEqual(3); // multiples of 10 are the NULLs
    expect(s.column(1)).toMatchObject({ nullCount: 0, min: 0, max: 999 / 4 });
    expect(s.column(2)).toMatchObject({ min: 'name0', max: 'name9' });
    expect(Math.abs(s.column(2).distinct! - 37)).toBeLessThanOrEqual(2);
    expect(s.column(3)).toMatchObject({ min: 18_000, max: 18_004, distinct: 5 });
    expect(s.column(4)).toMatchObject({ min: 0, max: 999_000_000 });
    expect(s.column(5)).toMatchObject({ distinct: 2, nullCount: 0 });
  });

  it('gives the mean bytes of a plain string column (from the offsets, sliced chunks too), none for other columns', () => {
    const all = batchFromRows(rows(1000), SCHEMA);
    const bytes = rows(1000).reduce((a, r) => a + Buffer.byteLength(r[2] as string), 0);
    const s = batchStatistics([all.slice(0, 300), all.slice(300)]);
    expect(s.column(2).avgBytes).toBeCloseTo(bytes / 1000, 10);
    expect(s.column(0).avgBytes).toBeUndefined();
    expect(exactStatistics([batchFromRows([[null, 0, 'héllo', 18_000, 0n, true], [null, 0, 'ab', 18_000, 0n, true]], SCHEMA).data.children[2]!]).avgBytes).toBe(4);
  });

  it('reads dictionary-encoded strings through the dictionary', async () => {
    const { generateTpch } = await import('../../src/io/tpch/index.js');
    const nation = generateTpch(0.01).nation;
    const src = memorySource(nation);
    const col = src.schema.fields.findIndex((f) => f.name === 'n_name');
    const st = src.statistics!()!.column(col);
    expect(st.distinct).toBe(25);
    expect(st.min).toBe('ALGERIA');
    expect(st.max).toBe('VIETNAM');
  });

  it('is cached per source (one table version) and computed lazily per column', () => {
    const src = memorySource([batchFromRows(rows(50), SCHEMA)]);
    const a = src.statistics!()!;
    expect(src.statistics!()).toBe(a);
    expect(a.column(0)).toBe(a.column(0));
    const newer = memorySource([batchFromRows(rows(80), SCHEMA)]);
    expect(newer.statistics!()!.rowCount).toBe(80);
  });

  it('remembers each chunk: the same batches in another source (another environment) cost no second pass', () => {
    const batches = [batchFromRows(rows(300), SCHEMA), batchFromRows(rows(500).slice(300), SCHEMA)];
    const first = batchStatistics(batches);
    const before = statisticsPasses.chunks;
    const a = [0, 1, 2, 3, 4].map((c) => first.column(c));
    expect(statisticsPasses.chunks - before).toBe(10);
    const again = batchStatistics(batches);
    expect([0, 1, 2, 3, 4].map((c) => again.column(c))).toEqual(a);
    expect(statisticsPasses.chunks - before).toBe(10);
    // A batch list sharing one chunk merges that chunk's remembered part with a new one's.
    const mixed = batchStatistics([batches[0]!, batchFromRows(rows(40).map((r) => [1000, ...r.slice(1)]), SCHEMA)]);
    expect(mixed.column(0)).toMatchObject({ min: 1, max: 1000, nullCount: 30 });
    expect(statisticsPasses.chunks - before).toBe(11);
  });

  it('plain strings: min and max byte-wise, with empty strings, ties on the first byte and NULLs first', () => {
    const S = schemaOf([field('s', 'VARCHAR')]);
    const cases: [(string | null)[], string, string][] = [
      [[null, 'b', 'ba', 'a', 'ab', 'b'], 'a', 'ba'],
      [['m', '', 'z', 'zz', 'za'], '', 'zz'],
      [['ab', 'aa', 'abc', 'aab'], 'aa', 'abc'],
      [['é', 'e', 'f'], 'e', 'é'],
    ];
    for (const [vals, min, max] of cases) {
      expect(columnStatistics([batchFromRows(vals.map((v) => [v]), S).data.children[0]!])).toMatchObject({ min, max });
    }
  });

  it('a few rows: exact figures from the values, as the sketch pass gives them, without a chunk pass', () => {
    const n = EXACT_STATISTICS_ROWS;
    const batches = [batchFromRows(rows(n).slice(0, 20), SCHEMA), batchFromRows(rows(n).slice(20), SCHEMA)];
    const before = statisticsPasses.chunks;
    const s = batchStatistics(batches);
    const exact = [0, 1, 2, 3, 4, 5].map((c) => s.column(c));
    expect(statisticsPasses.chunks).toBe(before);
    expect(exact[0]).toEqual({ nullCount: 7, distinct: n - 7, min: 1, max: n - 1 });
    expect(exact[2]!.distinct).toBe(37);
    // min, max and nulls as the sketch's pass finds them; distinct counts within the sketch's error.
    for (let c = 0; c < 6; c++) {
      const sketched = columnStatistics(batches.map((b) => b.data.children[c]!));
      expect({ ...exact[c], distinct: 0 }).toEqual({ ...sketched, distinct: 0 });
      expect(Math.abs(exact[c]!.distinct! - sketched.distinct!)).toBeLessThanOrEqual(1);
    }
    // Strings, dictionary-encoded or not, and NULLs.
    const S = schemaOf([field('s', 'VARCHAR')]);
    for (const vals of [[null, 'b', 'ba', 'a', 'ab', 'b'], ['m', '', 'z', 'zz', 'za'], ['é', 'e', 'f']]) {
      const d = batchFromRows(vals.map((v) => [v]), S).data.children[0]!;
      expect(exactStatistics([d])).toEqual(columnStatistics([d]));
    }
    // One row more takes the sketch.
    const passes = statisticsPasses.chunks;
    batchStatistics([batchFromRows(rows(n + 1), SCHEMA)]).column(0);
    expect(statisticsPasses.chunks).toBe(passes + 1);
  });

  it('a column of many chunks gives the same figures as one chunk of all its rows', () => {
    const whole = batchFromRows(rows(2000), SCHEMA);
    const parts = [0, 700, 1300].map((s, k, a) => batchFromRows(rows(2000).slice(s, a[k + 1] ?? 2000), SCHEMA));
    for (let c = 0; c < 6; c++) expect(columnStatistics(parts.map((b) => b.data.children[c]!))).toEqual(columnStatistics([whole.data.children[c]!]));
  });

  it('reads min, max and null counts from Parquet metadata without scanning', async () => {
    const dir = testTempDir('eddy-stats-');
    const p = join(dir, 'x.parquet');
    await writeParquet(p, [batchFromRows(rows(1000), SCHEMA)], { rowGroupSize: 300 });
    const s = (await parquetSource(p)).statistics!()!;
    expect(s.rowCount).toBe(1000);
    // hyparquet-writer records min, max and null count per column chunk (no distinct count).
    expect(s.column(0)).toEqual({ min: 1, max: 99, nullCount: 100 });
    expect(s.column(2)).toEqual({ min: 'name0', max: 'name9', nullCount: 0 });
    expect(s.column(3)).toEqual({ min: 18_000, max: 18_004, nullCount: 0 });
  });
});
