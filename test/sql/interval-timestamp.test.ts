/**
 * TIMESTAMP and DATE ± INTERVAL with sub-day units (HOUR, MINUTE, SECOND,
 * MILLISECOND) and on TIMESTAMP columns, against DuckDB: calendar months
 * first (the day clamped to the month's end), then days and smaller units;
 * the result is a TIMESTAMP. Compared as text, so the types must agree too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/environment.js';
import { openDuck, type Duck } from '../helpers/duckdb.js';

const SRC = "(SELECT TIMESTAMP '2024-01-31 10:00:00' AS t, DATE '2024-01-31' AS d UNION ALL SELECT TIMESTAMP '2023-03-31 23:59:59', DATE '2023-12-31' UNION ALL SELECT NULL, NULL) x";
const EXPRS = [
  't + INTERVAL 1 HOUR', 't - INTERVAL 90 MINUTE', "t + INTERVAL '30 seconds'", 't + INTERVAL 250 MILLISECOND',
  't + INTERVAL 1 MONTH', 't - INTERVAL 1 YEAR', 't + INTERVAL 3 DAY', 'INTERVAL 2 HOUR + t',
  'd + INTERVAL 3 HOUR', 'd - INTERVAL 1 MONTH - INTERVAL 2 HOUR', "TIMESTAMP '2024-02-29 12:00:00' + INTERVAL 1 YEAR",
  "DATE '2024-01-31' + INTERVAL 36 HOUR", 't + INTERVAL 1 MONTH + INTERVAL 1 HOUR',
];

let env: TableEnvironment;
let duck: Duck;
beforeAll(async () => { env = TableEnvironment.create(); duck = await openDuck(); });
afterAll(async () => { await env.close(); duck.close(); });

describe('TIMESTAMP ± INTERVAL', () => {
  for (const e of EXPRS) {
    it(e, async () => {
      const q = `SELECT CAST(${e} AS VARCHAR) AS v, typeof(${e}) AS ty FROM ${SRC}`;
      const mine = (await env.sql(`SELECT CAST(${e} AS VARCHAR) AS v FROM ${SRC}`).collect()).toArray().map((r) => r.toJSON().v ?? null);
      const theirs = (await duck.query(q)).rows.map((r) => r[0] ?? null);
      expect(mine).toEqual(theirs);
      const types = (await duck.query(q)).rows.map((r) => r[1]);
      expect(types[0]).toBe('TIMESTAMP');
      expect(env.sql(`SELECT ${e} AS v FROM ${SRC}`).schema.fields[0]!.type).toBe('TIMESTAMP');
    });
  }

  it('names the units it knows when one is unknown', () => {
    expect(() => env.sql("SELECT TIMESTAMP '2024-01-01 00:00:00' + INTERVAL 1 FORTNIGHT")).toThrow(/unsupported INTERVAL unit "FORTNIGHT"; use MILLISECOND, SECOND, MINUTE, HOUR, DAY/);
  });
});
