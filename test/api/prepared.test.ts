/**
 * Prepared statements (issue #10, small queries): `env.prepare(sql)` with `$n` and `?` parameters,
 * values bound as literals (never spliced into the text), typed by their first values, checked on
 * every run; the bound plan reused across runs when the binder treated the values as opaque, and
 * re-bound after a catalog change. Answers are compared with DuckDB's prepared statements.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/index.js';
import { preparedStats } from '../../src/api/prepared.js';
import { openDuck, type Duck } from '../helpers/duckdb.js';

const ROWS = Array.from({ length: 10 }, (_, i) => ({ a: i, b: ['x', 'y', 'z'][i % 3]! }));

function makeEnv(): TableEnvironment {
  const env = TableEnvironment.create({ parallelism: 1 });
  env.registerTable('t', env.fromRecords(ROWS, { a: 'INTEGER', b: 'VARCHAR' }));
  return env;
}

async function failure(p: (() => unknown) | Promise<unknown>): Promise<string> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected an error');
}

describe('env.prepare', () => {
  let duck: Duck;
  beforeAll(async () => {
    duck = await openDuck();
    await duck.run('CREATE TABLE t (a INTEGER, b VARCHAR)');
    await duck.run(`INSERT INTO t VALUES ${ROWS.map((r) => `(${r.a}, '${r.b}')`).join(', ')}`);
  });
  afterAll(() => duck.close());

  it('runs with $n and ? parameters as DuckDB does, binding once and reusing the plan', async () => {
    const env = makeEnv();
    const sql = 'SELECT a, b FROM t WHERE a > $1 AND b <> ? ORDER BY a';
    const p = env.prepare(sql);
    expect(p.parameterCount).toBe(2); // the ? after $1 is $2 (DuckDB's numbering)
    const binds = preparedStats.binds;
    const reuses = preparedStats.reuses;
    for (const [lo, b] of [[2, 'x'], [0, 'y'], [7, 'z'], [100, 'x']] as const) {
      const ours = (await p.toArray(lo, b)).map((r) => [r['a'], r['b']]);
      const stmt = await duck.conn.prepare(sql);
      stmt.bindInteger(1, lo);
      stmt.bindVarchar(2, b);
      expect(ours).toEqual((await stmt.runAndReadAll()).getRowsJS());
    }
    expect(preparedStats.binds - binds).toBe(1);
    expect(preparedStats.reuses - reuses).toBe(3);
    expect(p.parameterTypes).toEqual(['INTEGER', 'VARCHAR']);
    await env.close();
  });

  it('binds values, never text: a string parameter is a value, not SQL', async () => {
    const env = makeEnv();
    const p = env.prepare('SELECT count(*) AS n FROM t WHERE b = $1');
    expect(await p.toArray("x' OR '1' = '1")).toEqual([{ n: 0n }]);
    expect(await p.toArray('x')).toEqual([{ n: 4n }]);
    await env.close();
  });

  it('fails clearly for missing and extra values, type mismatches, and parameters outside prepare', async () => {
    const env = makeEnv();
    const p = env.prepare('SELECT a FROM t WHERE a > $1');
    expect(await failure(() => p.toArray())).toMatch(/takes 1 parameter, 0 were given/);
    expect(await failure(() => p.toArray(1, 2))).toMatch(/takes 1 parameter, 2 were given/);
    await p.toArray(3);
    expect(await failure(() => p.toArray('abc'))).toMatch(/parameter \$1 is INTEGER \(the type of its first value\), got 'abc'/);
    expect(await failure(() => p.toArray(1.5))).toMatch(/parameter \$1 is INTEGER/);
    expect(await failure(() => env.prepare('SELECT a FROM t WHERE a > $2').toArray(1))).toMatch(/takes 2 parameters, 1 was given/);
    expect(await failure(() => env.sql('SELECT a FROM t WHERE a > $1'))).toMatch(/parameter \$1 has no value: parameters are for prepared statements/);
    expect(await failure(() => p.toArray({} as never))).toMatch(/cannot bind a object/);
    await env.close();
  });

  it('accepts NULL for any parameter and types a parameter by its first non-NULL value', async () => {
    const env = makeEnv();
    const p = env.prepare('SELECT count(*) AS n FROM t WHERE a > $1');
    expect(await p.toArray(null)).toEqual([{ n: 0n }]);
    expect(await p.toArray(5)).toEqual([{ n: 4n }]);
    expect(await p.toArray(null)).toEqual([{ n: 0n }]);
    expect(p.parameterTypes).toEqual(['INTEGER']);
    await env.close();
  });

  it('re-binds when the binder used a value (LIMIT $1) and after the table is replaced', async () => {
    const env = makeEnv();
    const lim = env.prepare('SELECT a FROM t ORDER BY a LIMIT $1');
    expect((await lim.toArray(2)).length).toBe(2);
    expect((await lim.toArray(5)).length).toBe(5);
    const p = env.prepare('SELECT count(*) AS n FROM t WHERE a >= $1');
    expect(await p.toArray(0)).toEqual([{ n: 10n }]);
    env.registerTable('t', env.fromRecords([{ a: 1, b: 'q' }], { a: 'INTEGER', b: 'VARCHAR' }));
    expect(await p.toArray(0)).toEqual([{ n: 1n }]);
    await env.close();
  });

  it('parameters in subqueries, expressions and bind() composing with the Table API', async () => {
    const env = makeEnv();
    const p = env.prepare('SELECT a + $1 AS s FROM t WHERE a IN (SELECT a FROM t WHERE b = $2) ORDER BY s');
    expect(await p.toArray(10, 'y')).toEqual([{ s: 11 }, { s: 14 }, { s: 17 }]);
    expect(await p.toArray(100, 'z')).toEqual([{ s: 102 }, { s: 105 }, { s: 108 }]);
    expect(await p.bind(0, 'x').count()).toBe(4);
    const r = await env.prepare('SELECT $1 AS v').execute('hi');
    expect(r.getChildAt(0)!.get(0)).toBe('hi');
    await env.close();
  });
});

describe('PREPARE / EXECUTE / DEALLOCATE in SQL', () => {
  it('prepares, executes with values and deallocates, as DuckDB', async () => {
    const env = makeEnv();
    expect((await env.executeSql('PREPARE q AS SELECT a, b FROM t WHERE a >= $1 AND b = ? ORDER BY a')).kind).toBe('status');
    const r = await env.executeSql("EXECUTE q(4, 'y')");
    if (r.kind !== 'rows') throw new Error('expected rows');
    expect(r.table.toArray().map((x) => [x.a, x.b])).toEqual([[4, 'y'], [7, 'y']]);
    const again = await env.executeSql("EXECUTE q(-1, 'z')");
    if (again.kind !== 'rows') throw new Error('expected rows');
    expect(again.table.numRows).toBe(3);
    expect(await failure(env.executeSql('EXECUTE q(1)'))).toMatch(/takes 2 parameters, 1 was given/);
    expect(await failure(env.executeSql("EXECUTE q(a, 'x')"))).toMatch(/EXECUTE takes constant values/);
    expect((await env.executeSql('DEALLOCATE PREPARE q')).kind).toBe('status');
    expect(await failure(env.executeSql("EXECUTE q(1, 'x')"))).toMatch(/prepared statement "q" does not exist/);
    expect(await failure(env.executeSql('DEALLOCATE q'))).toMatch(/does not exist/);
    // The words stay usable as names.
    env.registerTable('execute', env.fromRecords([{ prepare: 1 }]));
    expect(await env.sql('SELECT prepare FROM execute').toArray()).toEqual([{ prepare: 1 }]);
    await env.close();
  });
});
