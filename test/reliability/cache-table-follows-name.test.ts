/**
 * `CACHE TABLE t` and then `INSERT INTO t` silently left t uncached: the
 * mark held the old version, so no later query was served from (or wrote) a
 * cache, and SHOW CACHES showed the lazy case as a plain "marked". A cache
 * made by name now follows the name, as in Spark: the insert releases the old
 * entry (C9) and marks the new version, which the next query re-creates and
 * later queries read. UNCACHE TABLE and DROP TABLE end it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/index.js';

let env: TableEnvironment;
beforeEach(async () => {
  env = TableEnvironment.create();
  await env.executeSql('CREATE TABLE c (a INTEGER)');
  await env.executeSql('INSERT INTO c VALUES (1), (2)');
});
afterEach(async () => { await env.close(); });

const live = (): { state: string; rows: number; hits: number }[] =>
  env.cacheManager.list().filter((e) => e.tables.includes('c') && e.reason === undefined).map((e) => ({ state: e.state, rows: e.rows, hits: e.hits }));
const sum = async (): Promise<unknown> => (await env.sql('SELECT sum(a) AS s FROM c').toArray())[0]!.s;

describe('CACHE TABLE name follows the name across INSERT', () => {
  for (const lazy of [false, true]) {
    it(`${lazy ? 'CACHE LAZY TABLE' : 'CACHE TABLE'}, INSERT, then queries read a re-created cache of the new data`, async () => {
      await env.executeSql(`CACHE ${lazy ? 'LAZY ' : ''}TABLE c`);
      await env.executeSql('INSERT INTO c VALUES (3)');
      expect(live()).toEqual([{ state: 'marked', rows: 0, hits: 0 }]);
      expect(await sum()).toBe(6n);
      expect(await sum()).toBe(6n);
      expect(live()).toEqual([{ state: 'materialized', rows: 3, hits: 1 }]);
      expect(await env.sql('SELECT sum(a) FROM c').explain()).toContain('CacheSource');
    });
  }

  it('UNCACHE TABLE and DROP TABLE end it', async () => {
    await env.executeSql('CACHE TABLE c');
    await env.executeSql('UNCACHE TABLE c');
    await env.executeSql('INSERT INTO c VALUES (3)');
    expect(live()).toEqual([]);
    await env.executeSql('CACHE TABLE c');
    await env.executeSql('DROP TABLE c');
    await env.executeSql('CREATE TABLE c (a INTEGER)');
    expect(live()).toEqual([]);
  });
});
