/**
 * Inserting into a NULL-typed column of a table registered through
 * registerTable (an Arrow table with a Null column) failed with an internal
 * error ("unsupported cast from INTEGER to NULL"). Such a column holds only
 * NULL: inserting NULL works, inserting a value is a clear ValidationError
 * naming the column.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Field, Int32, Null, RecordBatch, Schema, Struct, Table as ArrowTable, makeData } from 'apache-arrow';
import { TableEnvironment, ValidationError } from '../../src/index.js';

let env: TableEnvironment;
beforeEach(() => {
  env = TableEnvironment.create();
  const schema = new Schema([new Field('n', new Null(), true), new Field('k', new Int32(), true)]);
  const data = makeData({
    type: new Struct(schema.fields), length: 1, nullCount: 0,
    children: [makeData({ type: new Null(), length: 1 }), makeData({ type: new Int32(), length: 1, data: Int32Array.from([1]) })],
  });
  env.registerTable('t', new ArrowTable(schema, [new RecordBatch(schema, data)]));
});
afterEach(async () => { await env.close(); });

describe('INSERT into a NULL-typed column of a registered table', () => {
  it('a value is a ValidationError naming the column, not an internal error', async () => {
    for (const v of ['5', "'abc'", '1.5']) {
      const err = await env.executeSql(`INSERT INTO t VALUES (${v}, 2)`).then(() => null, (e: Error) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect(err!.message).toContain('column "n" has type NULL and can hold only NULL');
    }
    expect((await env.sql('SELECT count(*) AS c FROM t').toArray())[0]!.c).toBe(1n);
  });

  it('NULL and an omitted column insert', async () => {
    await env.executeSql('INSERT INTO t VALUES (NULL, 2)');
    await env.executeSql('INSERT INTO t (k) VALUES (3)');
    expect(await env.sql('SELECT n, k FROM t ORDER BY k').toArray()).toEqual([{ n: null, k: 1 }, { n: null, k: 2 }, { n: null, k: 3 }]);
  });
});
