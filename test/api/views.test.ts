/**
 * Views see the tables as they are now (bug 2 of issue 7): a view — SQL
 * `CREATE VIEW`, `CACHE TABLE name AS query`, or a derived Table registered
 * with `env.registerTable` — is re-resolved at every use. After an INSERT or
 * a replacement it reads the new data; after its table is dropped it fails
 * with an error naming the view and the table, and no old data is reachable.
 */
import { describe, expect, it } from 'vitest';
import { col, TableEnvironment } from '../../src/index.js';

async function count(env: TableEnvironment, sql: string): Promise<number> {
  const r = await env.executeSql(sql);
  if (r.kind !== 'rows') throw new Error('expected rows');
  return Number(r.table.getChildAt(0)!.get(0));
}

async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected an error');
}

const dropped = /view "v" cannot be read: it depends on table "s", which does not exist any more/;

describe('views over changed and dropped tables', () => {
  it('a SQL view sees INSERTs, then fails after DROP TABLE naming both', async () => {
    const env = TableEnvironment.create();
    await env.executeSql('CREATE TABLE s (x INTEGER); INSERT INTO s VALUES (1), (2)');
    await env.executeSql('CREATE VIEW v AS SELECT x FROM s WHERE x > 0');
    expect(await count(env, 'SELECT count(*) FROM v')).toBe(2);
    await env.executeSql('INSERT INTO s VALUES (3)');
    expect(await count(env, 'SELECT count(*) FROM v')).toBe(3);
    expect(await env.from('v').count()).toBe(3);
    await env.executeSql('DROP TABLE s');
    expect(await failure(env.executeSql('SELECT count(*) FROM v'))).toMatch(dropped);
    expect(() => env.from('v')).toThrow(dropped);
    expect(() => env.sql('SELECT * FROM v')).toThrow(dropped);
    // Re-creating the table makes the view usable again, over the new data only.
    await env.executeSql('CREATE TABLE s (x INTEGER); INSERT INTO s VALUES (7)');
    expect(await count(env, 'SELECT count(*) FROM v')).toBe(1);
  });

  it('a view registered from the Table API follows the same rules', async () => {
    const env = TableEnvironment.create();
    env.registerTable('s', env.fromRecords([{ x: 1 }, { x: 2 }]));
    env.registerTable('v', env.from('s').filter(col('x').gt(0)));
    expect(await env.from('v').count()).toBe(2);
    env.registerTable('s', env.fromRecords([{ x: 1 }, { x: 2 }, { x: 3 }, { x: 4 }]));
    expect(await env.from('v').count()).toBe(4);
    expect(await count(env, 'SELECT count(*) FROM v')).toBe(4);
    env.dropTable('s');
    expect(() => env.from('v')).toThrow(dropped);
    // An alias of a registered table is a view too: it does not keep the dropped data.
    env.registerTable('s', env.fromRecords([{ x: 1 }]));
    env.registerTable('alias', env.from('s'));
    env.dropTable('s');
    expect(() => env.from('alias')).toThrow(/view "alias" cannot be read: it depends on table "s"/);
  });

  it('CACHE TABLE ... AS over a dropped table neither answers nor re-caches from old data', async () => {
    const env = TableEnvironment.create();
    await env.executeSql('CREATE TABLE s (x INTEGER); INSERT INTO s VALUES (1), (2), (3)');
    await env.executeSql('CACHE TABLE c AS SELECT x FROM s WHERE x > 1');
    expect(await count(env, 'SELECT count(*) FROM c')).toBe(2);
    await env.executeSql('INSERT INTO s VALUES (4)');
    expect(await count(env, 'SELECT count(*) FROM c')).toBe(3);
    await env.executeSql('DROP TABLE s');
    const msg = /view "c" cannot be read: it depends on table "s", which does not exist any more/;
    expect(await failure(env.executeSql('SELECT count(*) FROM c'))).toMatch(msg);
    expect(await failure(env.executeSql('CACHE TABLE c'))).toMatch(msg);
    expect(env.cacheManager.list().filter((e) => e.state !== 'marked').every((e) => e.rows === 0 || !e.tables.includes('s'))).toBe(true);
  });
});
