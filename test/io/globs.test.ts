/**
 * Globs in file paths: read_parquet('dir/*.parquet') and read_csv over
 * several files read every matching file as one table (DuckDB's answer);
 * `**` descends into folders; files with different columns, and a pattern
 * matching nothing, are errors naming the files.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/environment.js';
import { expandGlob } from '../../src/io/multi-file.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { openDuck, type Duck } from '../helpers/duckdb.js';
import { fileTempDir } from '../helpers/temp-dir.js';

const dir = fileTempDir('eddy-globs-');
let env: TableEnvironment;
let duck: Duck;
beforeAll(async () => {
  env = TableEnvironment.create({ parallelism: 2 });
  duck = await openDuck();
  mkdirSync(join(dir, 'pq', 'sub'), { recursive: true });
  for (const k of [0, 1, 2]) await duck.run(`COPY (SELECT ${k} * 100 + i::INTEGER AS id, 'f${k}' AS src FROM range(50) t(i)) TO '${join(dir, 'pq', `part-${k}.parquet`)}' (FORMAT parquet)`);
  await duck.run(`COPY (SELECT 1000 + i::INTEGER AS id, 'deep' AS src FROM range(5) t(i)) TO '${join(dir, 'pq', 'sub', 'deep.parquet')}' (FORMAT parquet)`);
  writeFileSync(join(dir, 'a.csv'), 'x,y\n1,one\n2,two\n');
  writeFileSync(join(dir, 'b.csv'), 'x,y\n3,three\n');
  writeFileSync(join(dir, 'odd.txt'), 'x,z\n1,2\n');
});
afterAll(async () => {
  await env.close();
  duck.close();
});

const rows = async (sql: string) => {
  const r = await env.executeSql(sql);
  if (r.kind !== 'rows') throw new Error('expected rows');
  return fromArrow(r.table);
};

describe('globs', () => {
  it('read_parquet over *.parquet gives DuckDB\'s rows', async () => {
    const sql = `SELECT src, count(*) AS n, sum(id) AS s FROM read_parquet('${dir}/pq/*.parquet') GROUP BY src ORDER BY src`;
    expectSameResult(await rows(sql), await duck.query(sql), { ordered: true });
  });

  it('** descends into folders; ? and [..] match one character', async () => {
    expect((await expandGlob(`${dir}/pq/**/*.parquet`)).map((f) => f.slice(dir.length))).toEqual(['/pq/part-0.parquet', '/pq/part-1.parquet', '/pq/part-2.parquet', '/pq/sub/deep.parquet']);
    expect((await expandGlob(`${dir}/pq/part-[02].parquet`)).length).toBe(2);
    expect((await expandGlob(`${dir}/?.csv`)).length).toBe(2);
    const sql = `SELECT count(*) AS n FROM read_parquet('${dir}/pq/**/*.parquet')`;
    expectSameResult(await rows(sql), await duck.query(sql));
  });

  it('read_csv over several files; a filter is pushed into each', async () => {
    const sql = `SELECT x, y FROM read_csv('${dir}/*.csv') WHERE x > 1 ORDER BY x`;
    expect((await rows(sql)).rows).toEqual([[2, 'two'], [3, 'three']]);
  });

  it('errors: no match, different columns', async () => {
    await expect(env.executeSql(`SELECT * FROM read_parquet('${dir}/nothing/*.parquet')`)).rejects.toThrow(/no file matches/);
    await expect(env.executeSql(`SELECT * FROM read_csv('${dir}/*.*')`)).rejects.toThrow(/odd\.txt has columns \(x INTEGER, z INTEGER\) but .*a\.csv has \(x INTEGER, y VARCHAR\)/);
  });
});
