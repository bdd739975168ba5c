/**
 * DATE and TIMESTAMP values of far (5+ digit) and BC years in the text formats: COPY TO CSV and JSON
 * write DuckDB's text (`0044-03-15 (BC)`, `12345-06-07`, `... (BC) 12:30:00.5`), byte for byte, and
 * eddy's CSV and JSON readers read it back as DATE and TIMESTAMP (sniffed or declared), as DuckDB's
 * CSV reader does. Before, BC years were written as `0-43-03-15` and read back as text.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/index.js';
import { expectSameResult, fromArrow, type ResultSet } from '../helpers/compare.js';
import { openDuck, type Duck } from '../helpers/duckdb.js';
import { testTempDir } from '../helpers/temp-dir.js';

const VALUES = `SELECT * FROM (VALUES
  (1, DATE '0001-01-01', TIMESTAMP '0001-01-01 00:00:00'),
  (2, DATE '0044-03-15 (BC)', TIMESTAMP '0044-03-15 (BC) 12:30:00.5'),
  (3, DATE '5881580-07-10', TIMESTAMP '275760-09-13 00:00:00'),
  (4, DATE '5877642-06-25 (BC)', TIMESTAMP '271822-04-20 (BC) 00:00:00'),
  (5, DATE '12345-06-07', TIMESTAMP '12345-06-07 01:02:03.004'),
  (6, NULL, NULL),
  (7, DATE '2020-02-29', TIMESTAMP '1969-12-31 23:59:59.999')) v(k, d, ts)`;

let env: TableEnvironment;
let duck: Duck;

beforeAll(async () => {
  env = TableEnvironment.create({ parallelism: 1 });
  await env.executeSql(`CREATE TABLE far AS ${VALUES}`);
  duck = await openDuck();
  await duck.run(`CREATE TABLE far AS ${VALUES}`);
});

afterAll(async () => {
  await env?.close();
  duck?.close();
});

async function query(sql: string): Promise<ResultSet> {
  const r = await env.executeSql(sql);
  if (r.kind !== 'rows') throw new Error(`expected rows from ${sql}`);
  return fromArrow(r.table);
}

describe('far and BC dates and timestamps in CSV and JSON', () => {
  for (const format of ['csv', 'json'] as const) {
    it(`${format}: COPY TO writes DuckDB's text; eddy reads it back as DATE and TIMESTAMP, sniffed and declared`, async () => {
      const dir = testTempDir('eddy-far-text-');
      const mine = join(dir, `mine.${format}`), theirs = join(dir, `duck.${format}`);
      await env.executeSql(`COPY (SELECT * FROM far ORDER BY k) TO '${mine}'`);
      await duck.run(`COPY (SELECT * FROM far ORDER BY k) TO '${theirs}'`);
      expect(readFileSync(mine, 'utf8')).toBe(readFileSync(theirs, 'utf8'));
      const want = fromArrow((await env.executeSql('SELECT * FROM far ORDER BY k').then((r) => (r.kind === 'rows' ? r.table : undefined)))!);
      const sniffed = await query(`SELECT k, d, ts, typeof(d) AS td, typeof(ts) AS tt FROM read_${format}('${mine}') ORDER BY k`);
      expect(sniffed.rows.map((r) => [r[3], r[4]])).toEqual(want.rows.map(() => ['DATE', 'TIMESTAMP']));
      expectSameResult({ ...sniffed, names: sniffed.names.slice(0, 3), kinds: sniffed.kinds.slice(0, 3), rows: sniffed.rows.map((r) => r.slice(0, 3)) }, want, { ordered: true });
      // Declared types (read_csv's columns, fromJson's schema): the values as such, not sniffed.
      const declared = format === 'csv'
        ? await query(`SELECT * FROM read_csv('${mine}', columns = {'k': 'INTEGER', 'd': 'DATE', 'ts': 'TIMESTAMP'}) ORDER BY k`)
        : fromArrow(await (await env.fromJson(mine, { schema: { k: 'INTEGER', d: 'DATE', ts: 'TIMESTAMP' } })).orderBy('k').collect());
      expectSameResult(declared, want, { ordered: true });
    });
  }

  it("DuckDB's CSV reader reads eddy's file as the same DATE and TIMESTAMP values", async () => {
    const dir = testTempDir('eddy-far-text-');
    const mine = join(dir, 'mine.csv');
    await env.executeSql(`COPY far TO '${mine}'`);
    const r = await duck.query(`SELECT count(*) AS n FROM (SELECT * FROM read_csv('${mine}') EXCEPT SELECT * FROM far)`);
    expect(r.rows).toEqual([[0]]);
    expect((await duck.query(`SELECT DISTINCT typeof(d), typeof(ts) FROM read_csv('${mine}')`)).rows).toEqual([['DATE', 'TIMESTAMP']]);
  });

  it('past the TIMESTAMP range in a CSV column declared TIMESTAMP: an error naming the value, not a wrapped value', async () => {
    const dir = testTempDir('eddy-far-text-');
    const path = join(dir, 'past.csv');
    await duck.run(`COPY (SELECT TIMESTAMP '290000-01-01 00:00:00' AS ts) TO '${path}'`);
    // Sniffed: not a TIMESTAMP eddy can hold, so text.
    expect((await query(`SELECT typeof(ts) AS t FROM read_csv('${path}')`)).rows).toEqual([['VARCHAR']]);
    await expect(env.executeSql(`SELECT * FROM read_csv('${path}', columns = {'ts': 'TIMESTAMP'})`)).rejects.toThrow(/290000-01-01 00:00:00/);
  });
});
