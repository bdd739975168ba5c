/**
 * read_csv's column options from SQL, as DuckDB spells them: `columns =
 * {'name': 'TYPE', ...}` names and types every column, `types` / `dtypes`
 * set some types (the others inferred), with `=` or `:=`; the rows and types
 * are DuckDB's. A bad type or a non-struct value is an error.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/environment.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { openDuck, type Duck } from '../helpers/duckdb.js';
import { fileTempDir } from '../helpers/temp-dir.js';

const dir = fileTempDir('eddy-csvopts-');
const file = join(dir, 'f.csv');
let env: TableEnvironment;
let duck: Duck;
beforeAll(async () => {
  writeFileSync(file, 'id,code,price\n1,007,1.5\n2,010,2\n3,,3.25\n');
  env = TableEnvironment.create();
  duck = await openDuck();
});
afterAll(async () => {
  await env.close();
  duck.close();
});

describe('read_csv columns / types', () => {
  for (const opts of [
    "columns = {'id': 'BIGINT', 'code': 'VARCHAR', 'price': 'DOUBLE'}",
    "columns := {'n': 'INTEGER', 'c': 'VARCHAR', 'p': 'VARCHAR'}",
    "types = {'code': 'VARCHAR'}",
    "dtypes = {'id': 'DOUBLE', 'code': 'VARCHAR'}",
  ]) {
    it(opts, async () => {
      const sql = `SELECT * FROM read_csv('${file}', ${opts})`;
      const r = await env.executeSql(sql);
      if (r.kind !== 'rows') throw new Error('expected rows');
      const duckRows = await duck.query(sql);
      expectSameResult(fromArrow(r.table), duckRows);
      const types = await duck.query(`SELECT column_name, column_type FROM (DESCRIBE ${sql})`);
      expect(r.table.schema.fields.map((f, i) => [f.name, String(types.rows[i]![1])])).toEqual(types.rows.map((x) => [x[0], x[1]]));
    });
  }

  it('errors for a bad type and a value that is not a struct', async () => {
    await expect(env.executeSql(`SELECT * FROM read_csv('${file}', columns = {'id': 'INTEGR', 'code': 'VARCHAR', 'price': 'DOUBLE'})`)).rejects.toThrow(/unknown type "INTEGR" for column "id"/);
    await expect(env.executeSql(`SELECT * FROM read_csv('${file}', columns = 'id INTEGER')`)).rejects.toThrow(/takes a struct of column names and types/);
  });
});
