/**
 * lag / lead with a default over a dictionary-encoded VARCHAR column (TPC-H's and Arrow files' string
 * columns are dictionaries): the default is plain text, so the two sources differ in encoding. The
 * window operator decoded both sides, the plain one included, and failed with an internal error
 * ("dictionary column without a dictionary"). Checked against DuckDB.
 */
import * as arrow from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/index.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { loadRows, openDuck, type Duck } from '../helpers/duckdb.js';

const ROWS = Array.from({ length: 40 }, (_, i) => ({ id: i, g: i % 3, s: i % 7 === 0 ? null : `v${i % 5}`, t: `w${i % 4}` }));
let duck: Duck;
let env: TableEnvironment;

beforeAll(async () => {
  duck = await openDuck();
  await loadRows(duck, 't', { id: 'INTEGER', g: 'INTEGER', s: 'VARCHAR', t: 'VARCHAR' }, ROWS);
  env = TableEnvironment.create({ parallelism: 1 });
  const dict = (xs: (string | null)[]): arrow.Vector => arrow.vectorFromArray(xs, new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32()));
  env.registerTable('t', new arrow.Table({
    id: arrow.vectorFromArray(ROWS.map((r) => r.id), new arrow.Int32()),
    g: arrow.vectorFromArray(ROWS.map((r) => r.g), new arrow.Int32()),
    s: dict(ROWS.map((r) => r.s)),
    t: arrow.vectorFromArray(ROWS.map((r) => r.t), new arrow.Utf8()),
  }));
});
afterAll(async () => {
  await env.close();
  duck.close();
});

const SAME = [
  "SELECT id, lead(s, 2, 'none') OVER (ORDER BY id) AS x FROM t",
  "SELECT id, lag(s, 1, 'first') OVER (PARTITION BY g ORDER BY id) AS x FROM t",
  'SELECT id, lead(s, 1, t) OVER (ORDER BY id) AS x FROM t',
  'SELECT id, lag(t, 3, s) OVER (PARTITION BY g ORDER BY id) AS x FROM t',
  'SELECT id, lead(s, 1, s) OVER (ORDER BY id) AS x FROM t',
];

describe('lag / lead with a default over a dictionary column, as DuckDB', () => {
  it('the table really holds a dictionary column', async () => {
    const r = await env.sql('SELECT s FROM t').collect();
    expect(arrow.DataType.isDictionary(r.schema.fields[0]!.type)).toBe(true);
  });
  for (const q of SAME) {
    it(q, async () => {
      expectSameResult(fromArrow(await env.sql(q).collect()), await duck.query(q), { ordered: false, names: false });
    });
  }
});
