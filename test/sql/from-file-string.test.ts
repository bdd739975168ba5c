/**
 * DuckDB's `FROM 'path'`: a quoted file name in FROM is read by the table function its extension names
 * (cst-to-ast.ts fileTable), named after the file without extensions unless aliased.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/index.js';

let dir: string;
let env: TableEnvironment;

/** The rows of a query that reads files (env.executeSql: file table functions read asynchronously). */
async function rows(sql: string): Promise<Record<string, unknown>[]> {
  const r = await env.executeSql(sql);
  if (r.kind !== 'rows') throw new Error(`expected rows, got ${r.message}`);
  return r.table.toArray().map((x) => x.toJSON() as Record<string, unknown>);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'eddy-from-file-'));
  env = TableEnvironment.create({ parallelism: 1 });
  env.registerTable('t', env.fromRecords([{ a: 1, b: 'x' }, { a: 2, b: 'y' }, { a: 3, b: null }], { a: 'INTEGER', b: 'VARCHAR' }));
  for (const [file, format] of [['t.parquet', 'parquet'], ['t.csv', 'csv'], ['t.ndjson', 'json']] as const) {
    await env.executeSql(`COPY (SELECT * FROM t) TO '${join(dir, file)}' (FORMAT ${format})`);
  }
});
afterAll(async () => {
  await env.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("FROM 'file'", () => {
  for (const file of ['t.parquet', 't.csv', 't.ndjson']) {
    it(`reads ${file} by its extension, named after the file`, async () => {
      const r = await rows(`SELECT t.a, count(*) OVER () AS n FROM '${join(dir, file)}' WHERE b IS NOT NULL ORDER BY a`);
      expect(r.map((x) => [Number(x.a), Number(x.n)])).toEqual([[1, 2], [2, 2]]);
    });
  }

  it('takes an alias and a glob', async () => {
    const r = await rows(`SELECT sum(f.a) AS s FROM '${join(dir, '*.parquet')}' AS f`);
    expect(Number(r[0]!.s)).toBe(6);
  });

  it('an unknown extension is an error naming the readers', async () => {
    await expect(rows(`SELECT * FROM '${join(dir, 'x.xlsx')}'`)).rejects.toThrow(/cannot tell the format of .*x\.xlsx' from its extension .*call read_parquet, read_csv, read_json or read_arrow/);
  });

  it('a missing file says so', async () => {
    await expect(rows(`SELECT * FROM '${join(dir, 'missing.parquet')}'`)).rejects.toThrow(/missing\.parquet/);
  });
});
