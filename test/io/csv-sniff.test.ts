/**
 * CSV delimiter sniffing: without a delimiter option, read_csv finds `;`,
 * `|` or tab from the first lines (quotes respected), as DuckDB's sniffer
 * does, and returns DuckDB's rows; `,` stays the default when nothing is
 * consistent; an explicit `delim` wins.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/environment.js';
import { delimiterOf } from '../../src/io/csv-sniff.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { openDuck, type Duck } from '../helpers/duckdb.js';
import { fileTempDir } from '../helpers/temp-dir.js';

const dir = fileTempDir('eddy-sniff-');
let env: TableEnvironment;
let duck: Duck;
beforeAll(async () => {
  env = TableEnvironment.create();
  duck = await openDuck();
});
afterAll(async () => {
  await env.close();
  duck.close();
});

const FILES: Record<string, string> = {
  semicolon: 'id;name;price\n1;"a;b";1.5\n2;plain, with comma;2.25\n3;;0\n',
  pipe: 'id|name|price\n1|x|1.5\n2|"y|z"|2\n',
  tab: 'id\tname\tprice\n1\tx y\t1.5\n2\tz\t-3\n',
  comma: 'id,name,price\n1,"a;b|c",1\n2,d,2\n',
};

describe('delimiter sniffing', () => {
  for (const [name, text] of Object.entries(FILES)) {
    it(`reads a ${name}-separated file as DuckDB does`, async () => {
      const file = join(dir, `${name}.csv`);
      writeFileSync(file, text);
      const sql = `SELECT * FROM read_csv('${file}') ORDER BY id`;
      const r = await env.executeSql(sql);
      if (r.kind !== 'rows') throw new Error('expected rows');
      expectSameResult(fromArrow(r.table), await duck.query(sql), { ordered: true });
    });
  }

  it('keeps , when no candidate is consistent, and an explicit delim wins', async () => {
    expect(delimiterOf('a\nb;c\nd|e|f\n')).toBe(',');
    expect(delimiterOf('one column\nonly\n')).toBe(',');
    expect(delimiterOf('a;b\r1;x,y\r2;z\r')).toBe(';');
    const file = join(dir, 'forced.csv');
    writeFileSync(file, 'a;b|c\n1;2|3\n');
    const r = await env.executeSql(`SELECT * FROM read_csv('${file}', delim = '|')`);
    expect(r.kind === 'rows' ? r.table.schema.fields.map((f) => f.name) : []).toEqual(['a;b', 'c']);
  });
});
