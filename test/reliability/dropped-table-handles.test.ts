/**
 * A Table built before `DROP TABLE` read the dropped data. It now fails with
 * a ValidationError naming the table, like the SQL name does, also after the
 * table was created again (the handle holds the dropped version; a replaced
 * table's old handles keep reading their version, as documented).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TableEnvironment, ValidationError, col } from '../../src/index.js';

let env: TableEnvironment;
beforeEach(async () => {
  env = TableEnvironment.create();
  await env.executeSql('CREATE TABLE d (a INTEGER)');
  await env.executeSql('INSERT INTO d VALUES (1)');
});
afterEach(async () => { await env.close(); });

async function failure(f: () => Promise<unknown>): Promise<Error> {
  try { await f(); } catch (e) { return e as Error; }
  throw new Error('expected an error');
}

describe('Tables built before DROP TABLE', () => {
  it('fail with an error naming the dropped table (collect, count, stream, explain)', async () => {
    const h = env.from('d');
    const derived = h.filter(col('a').gt(0)).select(col('a'));
    await env.executeSql('DROP TABLE d');
    for (const f of [() => h.toArray(), () => derived.count(), () => h.explain(), async () => { for await (const b of h.stream()) void b; }]) {
      const e = await failure(f);
      expect(e).toBeInstanceOf(ValidationError);
      expect(e.message).toContain('table "d" was dropped (DROP TABLE) after this Table was built from it');
    }
  });

  it('still fail after the table is created again; new Tables read the new data', async () => {
    const h = env.from('d');
    await env.executeSql('DROP TABLE d');
    await env.executeSql('CREATE TABLE d (a INTEGER)');
    await env.executeSql('INSERT INTO d VALUES (9)');
    const e = await failure(() => h.toArray());
    expect(e.message).toContain('was created again since');
    expect(await env.from('d').toArray()).toEqual([{ a: 9 }]);
  });

  it('a replaced table keeps its old handles reading their version (unchanged)', async () => {
    const h = env.from('d');
    await env.executeSql('INSERT INTO d VALUES (2)');
    expect(await h.toArray()).toEqual([{ a: 1 }]);
    expect(await env.from('d').count()).toBe(2);
  });
});
