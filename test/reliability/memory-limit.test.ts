/**
 * The per-query memory limit (issue #11 "Query memory"): a join, sort or
 * aggregate whose state outgrows `memory_limit` fails with a clear error
 * naming what holds the state (in SQL terms; the operator instance is on the
 * error's `operator`) and the limit, and the environment keeps working.
 */
import { RecordBatch, Table, tableFromArrays, Utf8, vectorFromArray } from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { ExecutionError, TableEnvironment, ValidationError } from '../../src/index.js';
import { batchBytes, formatBytes, parseByteSize, QueryMemory } from '../../src/exec/memory.js';

const envs: TableEnvironment[] = [];
afterAll(async () => { await Promise.all(envs.map((e) => e.close())); });

function env(options: Parameters<typeof TableEnvironment.create>[0] = {}): TableEnvironment {
  const e = TableEnvironment.create(options);
  envs.push(e);
  const n = 200_000;
  const k = new Int32Array(n);
  const v = new Float64Array(n);
  for (let i = 0; i < n; i++) { k[i] = i; v[i] = i * 0.5; }
  e.registerTable('big', e.fromArrow(tableFromArrays({ k, v })));
  return e;
}

describe('memory_limit', () => {
  it('fails a grouped aggregate, a hash join and a full sort past the limit, naming the operator and the limit', async () => {
    const e = env();
    await e.executeSql("SET memory_limit = '1MB'");
    const cases: [string, RegExp, RegExp][] = [
      ['SELECT k, sum(v) FROM big GROUP BY k', /more for GROUP BY \/ aggregates\)/, /^HashAggregate#\d+\[0\], /],
      ['SELECT count(*) FROM big a JOIN big b ON a.k = b.k WHERE a.v + b.v >= 0', /more for a join's hash table\)/, /^HashJoin#/],
      ['SELECT k FROM big ORDER BY v DESC', /more for ORDER BY\)/, /^Sort#/],
      ['SELECT DISTINCT k FROM big', /more for (DISTINCT|GROUP BY \/ aggregates)\)/, /^(Distinct|HashAggregate)#/],
    ];
    for (const [sql, what, op] of cases) {
      const err = await e.sql(sql).toArray().then(() => undefined, (x: unknown) => x);
      expect(err, sql).toBeInstanceOf(ExecutionError);
      const msg = (err as Error).message;
      expect(msg, sql).toMatch(what);
      expect(msg, sql).not.toMatch(/#\d+\[/);
      expect((err as ExecutionError).operator, sql).toMatch(op);
      expect(msg, sql).toMatch(/out of memory: .* over memory_limit 1\.0 MB; SET memory_limit/);
    }
    // Small state stays under the limit; raising the limit lets the big ones run.
    expect(await e.sql('SELECT count(*) AS n FROM big WHERE k < 10').toArray()).toEqual([{ n: 10n }]);
    await e.executeSql("SET memory_limit = '2GB'");
    expect((await e.sql('SELECT k, sum(v) FROM big GROUP BY k').toArray()).length).toBe(200_000);
    expect(await e.sql('SELECT count(*) AS n FROM big a JOIN big b ON a.k = b.k').toArray()).toEqual([{ n: 200_000n }]);
  });

  it('takes the limit from TableEnvironment.create and rejects bad values', async () => {
    const e = env({ memoryLimit: '1MB' });
    expect(e.options.memoryLimit).toBe(1_000_000);
    await expect(e.sql('SELECT k, sum(v) FROM big GROUP BY k').toArray()).rejects.toThrow(/over memory_limit 1\.0 MB/);
    expect(() => TableEnvironment.create({ memoryLimit: 'lots' })).toThrow(ValidationError);
    expect(() => TableEnvironment.create({ memoryLimit: -5 })).toThrow(ValidationError);
    await expect(e.executeSql("SET memory_limit = 'lots'")).rejects.toThrow(/takes a size like '4GB'/);
    expect(TableEnvironment.create({}).options.memoryLimit).toBeGreaterThan(0);
  });
});

describe('exec/memory', () => {
  it('parses and formats sizes as DuckDB spells them', () => {
    expect(parseByteSize('4GB')).toBe(4e9);
    expect(parseByteSize('512 MiB')).toBe(512 * 1024 ** 2);
    expect(parseByteSize('1.5gb')).toBe(1.5e9);
    expect(parseByteSize('1000')).toBe(1000);
    expect(parseByteSize('lots')).toBeUndefined();
    expect(parseByteSize('5 parsecs')).toBeUndefined();
    expect(formatBytes(1_500_000)).toBe('1.5 MB');
    expect(formatBytes(12)).toBe('12 bytes');
  });

  it('counts a slice by its own rows, not its parent buffers', () => {
    const n = 100_000;
    const t = new Table({ a: vectorFromArray(new Float64Array(n)), s: vectorFromArray(Array.from({ length: n }, (_, i) => `row ${i}`), new Utf8()) });
    const batch = t.batches[0]!;
    const whole = batchBytes(batch);
    const slice = batch.slice(0, 5) as RecordBatch;
    expect(whole).toBeGreaterThan(n * 8);
    expect(batchBytes(slice)).toBeLessThan(200);
  });

  it('throws past the limit and releases', () => {
    const m = new QueryMemory(100);
    m.reserve('x', 60);
    m.release(30);
    m.reserve('x', 60);
    expect(m.used).toBe(90);
    expect(() => m.reserve('HashJoin#1', 20)).toThrow(/over memory_limit 100 bytes/);
    expect(m.peak).toBe(110);
  });
});
