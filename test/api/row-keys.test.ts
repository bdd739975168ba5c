/** Bug 8 of issue 7: toArray() kept one of several columns sharing a name; the Arrow schema keeps them all. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { col, TableEnvironment, uniqueRowKeys } from '../../src/index.js';

let env: TableEnvironment;

beforeAll(() => {
  env = TableEnvironment.create();
  env.registerTable('p', env.fromRecords([
    { id: 1, name: 'ann', boss: 2 },
    { id: 2, name: 'bob', boss: null },
  ], { id: 'INTEGER', name: 'VARCHAR', boss: 'INTEGER' }));
});

afterAll(async () => { await env.close(); });

describe('uniqueRowKeys', () => {
  it('keeps distinct names and suffixes later duplicates', () => {
    expect(uniqueRowKeys(['a', 'b'])).toEqual(['a', 'b']);
    expect(uniqueRowKeys(['name', 'name', 'name'])).toEqual(['name', 'name_1', 'name_2']);
  });

  it('never generates a key that is a real column name', () => {
    expect(uniqueRowKeys(['name', 'name', 'name_1'])).toEqual(['name', 'name_2', 'name_1']);
    expect(uniqueRowKeys(['name_1', 'name', 'name', 'name_2', 'name'])).toEqual(['name_1', 'name', 'name_3', 'name_2', 'name_4']);
    expect(uniqueRowKeys(['x', 'x_1', 'x', 'x_1'])).toEqual(['x', 'x_1', 'x_2', 'x_1_1']);
  });

  it('is case-sensitive, like object keys', () => {
    expect(uniqueRowKeys(['N', 'n'])).toEqual(['N', 'n']);
  });
});

describe('toArray over columns sharing a name', () => {
  it('SQL self-join: both name columns are kept as name and name_1; the Arrow schema is unchanged', async () => {
    const t = env.sql('SELECT a.name, b.name FROM p a JOIN p b ON a.boss = b.id');
    expect(await t.toArray()).toEqual([{ name: 'ann', name_1: 'bob' }]);
    const arrow = await t.collect();
    expect(arrow.schema.fields.map((f) => f.name)).toEqual(['name', 'name']);
  });

  it('a real column named name_1 keeps its key', async () => {
    const t = env.sql('SELECT a.name, b.name, a.id AS name_1 FROM p a JOIN p b ON a.boss = b.id');
    expect(await t.toArray()).toEqual([{ name: 'ann', name_2: 'bob', name_1: 1 }]);
  });

  it('Table API join keeps every same-named column', async () => {
    const a = env.from('p').as('a');
    const b = env.from('p').as('b');
    const rows = await a.join(b, col('a.boss').eq(col('b.id'))).toArray();
    expect(rows).toEqual([{ id: 1, name: 'ann', boss: 2, id_1: 2, name_1: 'bob', boss_1: null }]);
  });

  it('a column named __proto__ is an own key, not the prototype', async () => {
    const rows = await env.sql('SELECT 1 AS "__proto__", 2 AS x').toArray();
    expect(Object.keys(rows[0]!)).toEqual(['__proto__', 'x']);
    expect(Object.getOwnPropertyDescriptor(rows[0]!, '__proto__')?.value).toBe(1);
  });
});
