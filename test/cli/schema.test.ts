/**
 * `.schema` prints SQL that re-creates the catalog: quoted names where a name
 * is a reserved word or not a plain identifier, NOT NULL, and a SQL view's
 * own definition. The printed text runs in a fresh eddy and in DuckDB.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/environment.js';
import { runText } from '../../src/cli/script.js';
import { Session } from '../../src/cli/session.js';
import { openDuck } from '../helpers/duckdb.js';

async function schemaOf(setup: string): Promise<string> {
  const env = TableEnvironment.create();
  try {
    await env.executeSql(setup);
    const out = new PassThrough();
    let text = '';
    out.on('data', (d: Buffer) => { text += d.toString(); });
    const outcome = await runText(new Session(env, { out, err: new PassThrough() }), '.schema');
    expect(outcome).toBe('ok');
    return text;
  } finally {
    await env.close();
  }
}

describe('.schema', () => {
  it('prints valid SQL: quoted names, NOT NULL, view definitions', async () => {
    const text = await schemaOf(`CREATE TABLE "select" ("my col" INTEGER NOT NULL, "from" VARCHAR, plain DOUBLE);
      CREATE OR REPLACE VIEW v AS SELECT "my col" + 1 AS x, plain FROM "select" WHERE plain > 0`);
    expect(text).toBe([
      'CREATE TABLE "select" (',
      '  "my col" INTEGER NOT NULL,',
      '  "from" VARCHAR,',
      '  plain DOUBLE',
      ');',
      'CREATE VIEW v AS SELECT "my col" + 1 AS x, plain FROM "select" WHERE plain > 0;',
      '',
    ].join('\n'));
    const again = TableEnvironment.create();
    const duck = await openDuck();
    try {
      await again.executeSql(text);
      await duck.run(text);
      expect(again.listTables()).toEqual(['select', 'v']);
      const r = await duck.query("SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'v' ORDER BY ordinal_position");
      expect(r.rows).toEqual([['x', 'INTEGER'], ['plain', 'DOUBLE']]);
    } finally {
      await again.close();
      duck.close();
    }
  });
});
