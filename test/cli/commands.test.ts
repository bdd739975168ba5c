import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileTempDir } from '../helpers/temp-dir.js';
import { TableEnvironment } from '../../src/api/environment.js';
import { col } from '../../src/api/expr.js';
import { tableNameFor } from '../../src/cli/commands.js';
import { runText } from '../../src/cli/script.js';
import { Session } from '../../src/cli/session.js';
import { installFakeSql } from './helpers/fake-sql.js';

/** Runs a script in a fresh session; returns the outcome, stdout and stderr. */
async function run(script: string, setup?: (env: TableEnvironment) => void): Promise<{ outcome: string; out: string; err: string }> {
  const out = new PassThrough();
  const err = new PassThrough();
  let o = '';
  let e = '';
  out.on('data', (d: Buffer) => { o += d.toString(); });
  err.on('data', (d: Buffer) => { e += d.toString(); });
  const env = TableEnvironment.create();
  env.registerTable('nation', env.fromRecords([{ n_nationkey: 1, n_name: 'FRANCE' }], { n_nationkey: 'INTEGER', n_name: 'VARCHAR' }));
  setup?.(env);
  const outcome = await runText(new Session(env, { out, err }), script);
  return { outcome, out: o, err: e };
}

const dir = fileTempDir('eddy-commands-');

let restoreSql: () => void = () => {};
beforeAll(() => { restoreSql = installFakeSql(); });
afterAll(() => restoreSql());

describe('dot commands', () => {
  it('.tables and .schema describe the catalog', async () => {
    const r = await run('.tables\n.schema', (env) => env.registerTable('big', env.from('nation').filter(col('n_nationkey').gt(0))));
    expect(r.out).toBe([
      'big (view)  nation',
      '-- view big was defined with the Table API; its columns:', '--   n_nationkey INTEGER', '--   n_name VARCHAR',
      'CREATE TABLE nation (', '  n_nationkey INTEGER,', '  n_name VARCHAR', ');', '',
    ].join('\n'));
    const bad = await run('.schema natoin');
    expect(bad.outcome).toBe('error');
    expect(bad.err).toBe('Error: no table "natoin"; did you mean "nation"? (.tables lists them)\n');
  });

  it('.mode switches the output format; bad arguments are errors', async () => {
    const r = await run('.mode csv\nSELECT 5;\n.mode json\nSELECT 6;\n.mode\n.mode xml');
    expect(r.out).toBe('n\n5\n[{"n":6}]\nmode is json\n');
    expect(r.err).toBe('Error: unknown mode "xml"; use one of table, csv, json, markdown\n');
  });

  it('.timing and .maxrows show and change settings', async () => {
    const r = await run('.timing\n.timing on\nINSERT INTO t VALUES (1);\n.maxrows 5\n.maxrows\n.timing maybe');
    // stdout is not a terminal: the status line and its time go to stderr
    expect(r.out).toBe('timing is off\nmaxrows is 5\n');
    expect(r.err).toMatch(/^INSERT 3 \(\d+ ms\)\nError: \.timing takes on or off, got "maybe"\n$/);
  });

  it('.timer is .timing under DuckDB\'s name', async () => {
    const r = await run('.timer on\n.timer\nINSERT INTO t VALUES (1);');
    expect(r.out).toBe('timing is on\n');
    expect(r.err).toMatch(/^INSERT 3 \(\d+ ms\)\n$/);
  });

  it('.open registers files by extension, named after the file', async () => {
    const csv = join(dir, 'my-sales.2024.csv');
    writeFileSync(csv, 'id,amount\n1,2.5\n2,3\n');
    writeFileSync(join(dir, 'rows.ndjson'), '{"a":1}\n{"a":2}\n');
    let env: TableEnvironment | undefined;
    const r = await run(`.open ${csv}\n.open '${join(dir, 'rows.ndjson')}' AS r\n.tables`, (e) => { env = e; });
    expect(r.err).toBe(`created table my_sales_2024 from ${csv} (2 columns)\ncreated table r from ${join(dir, 'rows.ndjson')} (1 column)\n`);
    expect(r.out).toBe('my_sales_2024  nation         r\n');
    expect(await env!.from('my_sales_2024').count()).toBe(2);
    expect(tableNameFor('/x/2024 data.parquet')).toBe('t_2024_data');
    const missing = await run(`.open ${join(dir, 'nope.csv')}`);
    expect(missing.err).toBe(`Error: cannot open ${join(dir, 'nope.csv')}: no such file\n`);
    writeFileSync(join(dir, 'data.xlsx'), '');
    const odd = await run(`.open ${join(dir, 'data.xlsx')}`);
    expect(odd.err).toMatch(/^Error: cannot tell the format of ".*data.xlsx" from its extension/);
  });

  it('.read runs a script; its errors name the file and the line', async () => {
    const script = join(dir, 'script.sql');
    writeFileSync(script, '-- a script\nSELECT 1;\n\nSELCT 2;\nSELECT 3;\n');
    const r = await run(`.read ${script}\nSELECT 4;`);
    expect(r.outcome).toBe('error');
    expect(r.out).toMatch(/│ +1 │/);
    expect(r.out).not.toMatch(/│ +3 │|│ +4 │/);
    expect(r.err).toBe(`${script}: Syntax error: line 4, column 1: unexpected "SELCT"\n`);
    const loop = join(dir, 'loop.sql');
    writeFileSync(loop, `.read ${loop}\n`);
    expect((await run(`.read ${loop}`)).err).toContain('nested more than 16 deep');
    expect((await run(`.read ${join(dir, 'none.sql')}`)).err).toBe(`Error: cannot read ${join(dir, 'none.sql')}: no such file\n`);
  });

  it('.caches reports the engine\'s error (no "not available" fallback); unknown commands suggest one; .quit stops a script', async () => {
    expect((await run('.caches\n')).err).toBe('Error: SHOW CACHES is not supported\n');
    expect((await run('.tabels\n')).err).toBe('Error: unknown command ".tabels"; did you mean .tables? (.help lists the commands)\n');
    const q = await run('SELECT 1;\n.quit\nSELECT 2;');
    expect(q.outcome).toBe('quit');
    expect(q.out).not.toMatch(/│ +2 │/);
    expect((await run('.help')).out).toContain('.open FILE [AS name]');
  });
});
