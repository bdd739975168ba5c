/**
 * Dictionary columns across threads (src/exec/workers/wire.ts): each message brings its own
 * copies of a dictionary, so the calling thread and the workers rebuild one Arrow dictionary per
 * distinct content (sameDictionary); a hash join's build side gathered from two workers then
 * concatenates codes instead of merging dictionaries string by string. Answers stay those of one
 * thread, with NULL keys and outer, semi and anti joins over a gathered build side.
 */
import * as arrow from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/index.js';
import { fromWireBatch, toWireBatch, type WireData } from '../../src/exec/workers/wire.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { workerStats } from './helpers.js';

const dictType = (): arrow.Dictionary => new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32());
const dictColumn = (xs: (string | null)[]): arrow.Data => arrow.vectorFromArray(xs, dictType()).data[0]!;

describe('rebuilding dictionaries from wire batches', () => {
  const batch = (xs: (string | null)[]): arrow.RecordBatch => new arrow.RecordBatch({ s: dictColumn(xs) });

  it('the same strings arriving as different objects share one Arrow dictionary; other strings do not', () => {
    const a = structuredClone(toWireBatch(batch(['x', 'y', null, 'x'])));
    const b = structuredClone(toWireBatch(batch(['x', 'y', 'y'])));
    const c = structuredClone(toWireBatch(batch(['y', 'x'])));
    const dicts = new Map<WireData, arrow.Vector>();
    const [da, db, dc] = [a, b, c].map((w) => fromWireBatch(w, dicts).data.children[0]!);
    expect(b.columns[0]!.dict).not.toBe(a.columns[0]!.dict);
    // vectorFromArray builds the dictionary in first-seen order: ['x', 'y'] twice, ['y', 'x'] once.
    expect(db!.dictionary).toBe(da!.dictionary);
    expect(dc!.dictionary).not.toBe(da!.dictionary);
    expect([...fromWireBatch(a, dicts).getChildAt(0)!]).toEqual(['x', 'y', null, 'x']);
    expect([...fromWireBatch(c, dicts).getChildAt(0)!]).toEqual(['y', 'x']);
  });
});

describe('joins whose gathered build side has dictionary columns and NULL keys, on workers', { timeout: 120_000 }, () => {
  // fact: 240k rows (a stage); dim: 30k rows with a dictionary column, some NULL keys, filtered so that it is gathered.
  const N = 240_000;
  const M = 30_000;
  const fact = arrow.tableFromArrays({ fk: Int32Array.from({ length: N }, (_, i) => (i * 7919) % (M + 500)), v: Float64Array.from({ length: N }, (_, i) => (i % 997) / 10) });
  const dk = arrow.makeData({ type: new arrow.Int32(), data: Int32Array.from({ length: M }, (_, i) => i), nullBitmap: Uint8Array.from({ length: M / 8 }, (_, j) => (j % 50 === 0 ? 0b11101111 : 0xff)), nullCount: Array.from({ length: M / 8 }, (_, j) => (j % 50 === 0 ? 1 : 0) as number).reduce((a, b) => a + b, 0) });
  const seg = dictColumn(Array.from({ length: M }, (_, i) => (i % 97 === 0 ? null : `segment-${i % 5}`)));
  const dim = new arrow.Table(new arrow.RecordBatch({ dk, seg, w: arrow.makeData({ type: new arrow.Int32(), data: Int32Array.from({ length: M }, (_, i) => i % 10) }) }));
  const p1 = TableEnvironment.create({ parallelism: 1 });
  const p2 = TableEnvironment.create({ parallelism: 2, workers: 'always', batchSize: 4096 });
  for (const e of [p1, p2]) { e.registerTable('fact', fact); e.registerTable('dim', dim); }
  afterAll(async () => { await p1.close(); await p2.close(); });

  const queries: Record<string, string> = {
    inner: 'SELECT seg, count(*) AS c, sum(v) AS s FROM fact JOIN dim ON fk = dk WHERE w = 1 GROUP BY seg',
    left: 'SELECT seg, count(*) AS c, count(dk) AS m, sum(v) AS s FROM fact LEFT JOIN (SELECT * FROM dim WHERE w = 1) d ON fk = dk GROUP BY seg',
    semi: 'SELECT count(*) AS c, sum(v) AS s FROM fact WHERE fk IN (SELECT dk FROM dim WHERE w = 1 AND seg = \'segment-1\')',
    anti: 'SELECT count(*) AS c, sum(v) AS s FROM fact WHERE NOT EXISTS (SELECT 1 FROM dim WHERE w = 1 AND dk = fk)',
  };
  for (const [name, sql] of Object.entries(queries)) {
    it(`${name} join: the answer of one thread`, async () => {
      const before = workerStats(p2).stages;
      const n0 = workerStats(p2).traces.length;
      const a = await p2.sql(sql).collect();
      expect(workerStats(p2).stages).toBeGreaterThan(before);
      // The filtered dim side is gathered on the workers first, then built by each worker.
      expect(workerStats(p2).traces.slice(n0).map((t) => t.mode)).toContain('gather');
      const b = await p1.sql(sql).collect();
      expect(a.numRows).toBeGreaterThan(0);
      expectSameResult(fromArrow(a), fromArrow(b), {});
    });
  }
});
