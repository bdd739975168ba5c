/**
 * read_csv header detection, `skip` and `ignore_errors` against DuckDB: the
 * same files read by both engines give the same column names and rows (types
 * compared by kind: eddy infers INTEGER where DuckDB says BIGINT).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/environment.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { openDuck, type Duck } from '../helpers/duckdb.js';
import { fileTempDir } from '../helpers/temp-dir.js';

const dir = fileTempDir('eddy-csvsniff-');
const FILES: Record<string, string> = {
  names_over_ints: 'a,b\n1,2\n3,4\n',
  ints_only: '1,2\n3,4\n',
  all_text: 'x,y\nfoo,bar\n',
  text_and_int: 'a,1\nb,2\n',
  one_text_row: 'a,b\n',
  one_int_row: '10,20\n',
  one_mixed_row: 'x,1\n',
  dates: 'id,d\n1,2020-01-01\n2,2020-01-02\n',
  text_and_dates: 'a,2020-01-01\nb,2020-01-02\n',
  empty_value_below: 'id,v\n1,\n2,3\n',
  blank_header_name: ',v\n1,2\n',
  blank_first_text: 'foo,\nbar,baz\n',
  null_in_data: 'a,b\n,2\n3,4\n',
  quoted: '"a","b"\n"1","2"\n',
  duplicate_names: 'a,a\n1,2\n',
  booleans: 'true,1\nfalse,2\n',
  number_name: '1,b\n1.5,2\n',
  doubles: 'a,b\n1.5,2\n',
  semicolons: 'a;b\n1;2\n',
  one_column: 'x\n1\n',
  one_text_column: 'x\ny\n',
  junk_first: 'junk line\nmore junk\na,b\n1,2\n3,4\n',
  errors: 'a,b\n1,2\n3,x\n4\n5,6,7\n8,9\n',
  bad_ints: 'a,b\n1,2\n3,x\n5,6\n',
};
const path = (name: string): string => join(dir, `${name}.csv`);

let env: TableEnvironment;
let duck: Duck;
beforeAll(async () => {
  for (const [name, text] of Object.entries(FILES)) writeFileSync(path(name), text);
  env = TableEnvironment.create();
  duck = await openDuck();
});
afterAll(async () => {
  await env.close();
  duck.close();
});

async function same(sql: string): Promise<void> {
  const r = await env.executeSql(sql);
  if (r.kind !== 'rows') throw new Error('expected rows');
  const d = await duck.query(sql);
  expect(r.table.schema.fields.map((f) => f.name)).toEqual(d.names);
  expectSameResult(fromArrow(r.table), d);
}

describe('read_csv header detection (no header option), as DuckDB', () => {
  for (const name of Object.keys(FILES).filter((n) => n !== 'junk_first' && n !== 'errors')) {
    it(name, () => same(`SELECT * FROM read_csv('${path(name)}')`));
  }
  it('an explicit header option wins', async () => {
    await same(`SELECT * FROM read_csv('${path('ints_only')}', header = true)`);
    await same(`SELECT * FROM read_csv('${path('all_text')}', header = false)`);
    await same(`SELECT * FROM read_csv('${path('text_and_int')}', header = true, types = {'1': 'DOUBLE'})`);
  });
  it('applies to a full columns list too', () => same(`SELECT * FROM read_csv('${path('names_over_ints')}', columns = {'x': 'INTEGER', 'y': 'INTEGER'})`));
});

describe('read_csv skip', () => {
  for (const opts of ['skip = 2', 'skip = 2, header = false', 'skip = 3', 'skip = 3, header = true', "skip = 2, types = {'b': 'DOUBLE'}"]) {
    it(opts, () => same(`SELECT * FROM read_csv('${path('junk_first')}', ${opts})`));
  }
  it('errors clearly for a negative or non-number skip, and when skip passes the end', async () => {
    await expect(env.executeSql(`SELECT * FROM read_csv('${path('junk_first')}', skip = -1)`)).rejects.toThrow(/option skip must be a whole number >= 0/);
    await expect(env.executeSql(`SELECT * FROM read_csv('${path('junk_first')}', skip = 'x')`)).rejects.toThrow(/option skip must be a whole number >= 0/);
    await expect(env.executeSql(`SELECT * FROM read_csv('${path('junk_first')}', skip = 10)`)).rejects.toThrow(/the file is empty after skipping 10 lines/);
  });
});

describe('read_csv ignore_errors', () => {
  for (const opts of ['ignore_errors = true', 'ignore_errors = true, header = true', "ignore_errors = true, columns = {'a': 'INTEGER', 'b': 'INTEGER'}",
    "ignore_errors = true, types = {'b': 'INTEGER'}", 'ignore_errors = 1']) {
    it(opts, () => same(`SELECT * FROM read_csv('${path('errors')}', ${opts})`));
  }
  it('drops a bad row whichever columns the query reads', async () => {
    await same(`SELECT a FROM read_csv('${path('bad_ints')}', ignore_errors = true, types = {'b': 'INTEGER'})`);
    await same(`SELECT count(*) AS n FROM read_csv('${path('bad_ints')}', ignore_errors = true, types = {'b': 'INTEGER'})`);
  });
  it('without it, the first bad record fails the read with its line', async () => {
    await expect(env.executeSql(`SELECT * FROM read_csv('${path('errors')}')`)).rejects.toThrow(/line 4: found 1 fields but expected 2/);
    await expect(env.executeSql(`SELECT * FROM read_csv('${path('bad_ints')}', types = {'b': 'INTEGER'})`)).rejects.toThrow(/line 3, column 2 \("b"\): cannot read 'x' as INTEGER/);
  });
});
