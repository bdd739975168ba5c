/**
 * `runCli` in-process with the real SQL layer (fast, unlike spawning): JSON
 * rows of a self-join keep both same-named columns under distinct keys, and
 * with stdout not a terminal only results reach it.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => { out += d.toString(); });
  stderr.on('data', (d: Buffer) => { err += d.toString(); });
  const code = await runCli(['--no-demo', ...args], { stdin: new PassThrough(), stdout, stderr });
  return { code, out, err };
}

const SETUP = "CREATE TABLE p (id INTEGER, name VARCHAR, name_1 VARCHAR); INSERT INTO p VALUES (1, 'ann', 'x'), (2, 'bob', 'y');";

describe('eddy output through runCli', () => {
  it('json keeps every column of a self-join: name, name_1, ... never colliding with a real column', async () => {
    const r = await cli(['--format', 'json', '-c', `${SETUP} SELECT a.name, b.name, a.name_1 FROM p a JOIN p b ON a.id + 1 = b.id;`]);
    expect(r).toEqual({ code: 0, out: '[{"name":"ann","name_2":"bob","name_1":"x"}]\n', err: 'CREATE TABLE\nINSERT 2\n' });
    expect(JSON.parse(r.out)).toEqual([{ name: 'ann', name_2: 'bob', name_1: 'x' }]);
  });

  it('csv of a query with doubles writes them exactly; .timing goes to stderr', async () => {
    const r = await cli(['--format', 'csv', '-c', '.timing on\nSELECT 1/3 AS a, 1e-10 AS b, CAST(9007199254740993 AS DOUBLE) AS c, 9007199254740993::BIGINT AS d;']);
    expect(r.code).toBe(0);
    expect(r.out).toBe('a,b,c,d\n0.3333333333333333,1e-10,9007199254740992.0,9007199254740993\n');
    expect(r.err).toMatch(/^\(\d+ ms\)\n$/);
  });
});
