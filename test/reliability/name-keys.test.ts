/**
 * User names are never keys of plain objects (issue #11): columns, tables,
 * views, CTEs, aliases, settings, functions, date parts, INTERVAL units and
 * CACHE TABLE options named `__proto__`, `constructor`, `toString`,
 * `hasOwnProperty` or `valueOf` behave like any other name — found when they
 * exist, the normal "not found" error when they do not — and records, JSON
 * and CSV rows read only their own properties. `toArray()` keeps a
 * `__proto__` column as an own enumerable property (src/relnode/name-keys.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import '../../src/index.js';
import { TableEnvironment } from '../../src/api/environment.js';
import { renderJson } from '../../src/cli/modes.js';
import { ValidationError } from '../../src/relnode/errors.js';
import { testTempDir } from '../helpers/temp-dir.js';

const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'] as const;

let env: TableEnvironment;
beforeEach(() => { env = TableEnvironment.create({ parallelism: 1 }); });
afterEach(async () => { await env.close(); });

async function run(sql: string): Promise<unknown> {
  const r = await env.executeSql(sql);
  return r.kind === 'rows' ? r.table.numRows : r.message;
}

/** The rows as [own keys, values]: proves each key is an own property and the prototype is untouched. */
function shape(rows: readonly Record<string, unknown>[]): [string[], unknown[]][] {
  return rows.map((r) => {
    expect(Object.getPrototypeOf(r)).toBe(Object.prototype);
    return [Object.keys(r), Object.values(r)];
  });
}

describe.each(NAMES)('the name %s', (n) => {
  it('as a column: toArray() keeps it as an own enumerable key', async () => {
    const rows = await env.sql(`SELECT 1 AS "${n}", 2 AS b`).toArray();
    expect(shape(rows)).toEqual([[[n, 'b'], [1, 2]]]);
    expect(Object.getOwnPropertyDescriptor(rows[0], n)).toMatchObject({ value: 1, enumerable: true, writable: true });
    expect(JSON.stringify(rows)).toBe(`[{"${n}":1,"b":2}]`);
  });

  it('as a column in the CLI\'s JSON output: parsed back, the key is there', async () => {
    const text = [...renderJson(await env.sql(`SELECT 1 AS "${n}", 2 AS b`).collect())].join('');
    expect(shape(JSON.parse(text) as Record<string, unknown>[])).toEqual([[[n, 'b'], [1, 2]]]);
  });

  it('as a table, a view, a CTE and an alias', async () => {
    await run(`CREATE TABLE "${n}" ("${n}" INTEGER, b INTEGER)`);
    await run(`INSERT INTO "${n}" VALUES (1, 2)`);
    expect(shape(await env.sql(`SELECT * FROM "${n}"`).toArray())).toEqual([[[n, 'b'], [1, 2]]]);
    await run(`CREATE VIEW "v${n}" AS SELECT "${n}" + 1 AS "${n}" FROM "${n}"`);
    expect(shape(await env.sql(`SELECT "${n}" FROM "v${n}"`).toArray())).toEqual([[[n], [2]]]);
    expect(shape(await env.sql(`WITH "${n}" AS (SELECT 3 AS "${n}") SELECT "${n}"."${n}" FROM "${n}"`).toArray())).toEqual([[[n], [3]]]);
    expect(shape(await env.from(n).groupBy(n).select(n).toArray())).toEqual([[[n], [1]]]);
  });

  it('an unknown table of that name is the normal "not found" error', () => {
    expect(() => env.sql(`SELECT * FROM "${n}"`)).toThrow(new RegExp(`table "${n}" not found`));
    expect(() => env.from(n)).toThrow(ValidationError);
  });

  it('SET of that name is the normal unknown-setting error', async () => {
    await expect(run(`SET ${n} = true`)).rejects.toThrow(new RegExp(`unknown setting "${n}"`));
    await expect(run(`SET "${n}" = 1`)).rejects.toThrow(ValidationError);
  });

  it('a function of that name is the normal "unknown function" error (scalar, aggregate, Table API)', () => {
    const unknown = new RegExp(`unknown function "${n}"`, 'i');
    expect(() => env.sql(`SELECT ${n}(1)`)).toThrow(unknown);
    expect(() => env.sql(`SELECT "${n}"(1)`)).toThrow(unknown);
    expect(() => env.sql(`SELECT ${n}(x) FROM (VALUES (1)) v(x) GROUP BY x`)).toThrow(unknown);
    expect(() => env.fromRecords([{ a: 1 }]).select(`${n}(a)`)).toThrow(unknown);
  });

  it('date parts, INTERVAL units and CACHE TABLE options of that name are rejected as unknown', async () => {
    expect(() => env.sql(`SELECT date_part('${n}', DATE '2020-01-01')`)).toThrow(new RegExp(`unsupported date part "${n}"`));
    expect(() => env.sql(`SELECT DATE '2020-01-01' + INTERVAL '1 ${n}'`)).toThrow(/INTERVAL/);
    await run('CREATE TABLE t (a INTEGER)');
    await expect(run(`CACHE TABLE t OPTIONS ('${n}' = 'MEMORY_ONLY')`)).rejects.toThrow(new RegExp(`unknown CACHE TABLE option "${n}"`));
  });

  it('fromRecords: a record without the column gives NULL, not an Object.prototype member', async () => {
    const second = JSON.parse(`{"a": 2, "${n}": 3}`) as Record<string, unknown>;
    expect(shape(await env.fromRecords([{ a: 1 }, second]).toArray())).toEqual([[['a', n], [1, null]], [['a', n], [2, 3]]]);
    const schema = JSON.parse(`{"a": "INTEGER", "${n}": "VARCHAR"}`) as Record<string, string>;
    expect(shape(await env.fromRecords([{ a: 1 }], schema).toArray())).toEqual([[['a', n], [1, null]]]);
  });

  it('JSON and CSV files with a column of that name', async () => {
    const dir = testTempDir('eddy-name-keys-');
    const json = join(dir, 'a.json');
    writeFileSync(json, `{"a": 1, "${n}": 2}\n{"a": 3}\n`);
    expect(shape(await (await env.fromJson(json)).toArray())).toEqual([[['a', n], [1, 2]], [['a', n], [3, null]]]);
    writeFileSync(json, '{"a": 1}\n');
    expect(shape(await (await env.fromJson(json, { schema: JSON.parse(`{"a": "INTEGER", "${n}": "VARCHAR"}`) })).toArray())).toEqual([[['a', n], [1, null]]]);
    const csv = join(dir, 'a.csv');
    writeFileSync(csv, `a,${n}\n1,2\n`);
    expect(shape(await (await env.fromCsv(csv, { schema: JSON.parse(`{"${n}": "VARCHAR"}`) })).toArray())).toEqual([[['a', n], [1, '2']]]);
  });
});
