/**
 * env.sql reuses the bound plan of a text it bound before (src/api/bound-plans.ts) while the
 * catalog, views and settings are as they were; any change binds again, and a plan over an
 * unregistered source is never kept. Answers must be those of a fresh bind.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/index.js';
import { boundPlanStats } from '../../src/api/bound-plans.js';

const envs: TableEnvironment[] = [];
function makeEnv(): TableEnvironment {
  const env = TableEnvironment.create({ parallelism: 1 });
  env.registerTable('t', env.fromRecords(Array.from({ length: 10 }, (_, i) => ({ a: i })), { a: 'INTEGER' }));
  envs.push(env);
  return env;
}
afterEach(async () => { for (const e of envs.splice(0)) await e.close(); });

const q = 'SELECT count(*) AS n, sum(a) AS s FROM t WHERE a > 3';

describe('bound plans of env.sql', () => {
  it('reuses the plan of the same text, with the same answer', async () => {
    const env = makeEnv();
    const first = await env.sql(q).toArray();
    const hits = boundPlanStats.hits;
    expect(await env.sql(q).toArray()).toEqual(first);
    expect(env.sql(q).plan).toBe(env.sql(q).plan);
    expect(boundPlanStats.hits).toBeGreaterThan(hits);
    expect(first).toEqual([{ n: 6n, s: 39n }]);
  });

  it('binds again after the table was replaced, a row inserted, a view defined or a setting changed', async () => {
    const env = makeEnv();
    expect(await env.sql(q).toArray()).toEqual([{ n: 6n, s: 39n }]);
    env.registerTable('t', env.fromRecords([{ a: 5 }], { a: 'INTEGER' }));
    expect(await env.sql(q).toArray()).toEqual([{ n: 1n, s: 5n }]);
    await env.executeSql('INSERT INTO t VALUES (7)');
    expect(await env.sql(q).toArray()).toEqual([{ n: 2n, s: 12n }]);
    const div = 'SELECT 7 / 2 AS d';
    expect(await env.sql(div).toArray()).toEqual([{ d: 3.5 }]);
    await env.executeSql('SET integer_division = true');
    expect((await env.sql(div).toArray())[0]!.d).toEqual(3);
    const v = 'SELECT count(*) AS n FROM v';
    env.registerTable('v', env.sql('SELECT a FROM t WHERE a > 6'));
    expect(await env.sql(v).toArray()).toEqual([{ n: 1n }]);
    env.registerTable('v', env.sql('SELECT a FROM t'));
    expect(await env.sql(v).toArray()).toEqual([{ n: 2n }]);
  });

  it('keeps no plan over an unregistered source, and no failed bind', async () => {
    const env = makeEnv();
    env.registerTable('w', env.fromRecords([{ a: 1 }, { a: 2 }], { a: 'INTEGER' }).select('a'));
    const text = 'SELECT a FROM w';
    expect(env.sql(text).plan).not.toBe(env.sql(text).plan);
    expect(await env.sql(text).toArray()).toEqual([{ a: 1 }, { a: 2 }]);
    expect(() => env.sql('SELECT nope FROM t')).toThrow(/nope/);
    expect(() => env.sql('SELECT nope FROM t')).toThrow(/nope/);
  });
});
