/**
 * Under `npm start` (npm runs the script in the package folder), relative
 * paths in -f, .open, table functions and COPY mean the folder the user ran
 * it from (npm's INIT_CWD), as they do for a plain `eddy`.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { testTempDir } from '../helpers/temp-dir.js';

const ROOT = resolve(__dirname, '../..');

it('resolves relative paths against the directory npm start was run from', async () => {
  const dir = testTempDir('eddy-cwd-');
  writeFileSync(join(dir, 'data.csv'), 'a,b\n1,x\n2,y\n');
  writeFileSync(join(dir, 'script.sql'), ".open data.csv\nSELECT count(*) AS n FROM data;\nCOPY (SELECT * FROM read_csv('data.csv') WHERE a > 1) TO 'out.csv';\n");
  const env = { ...process.env, EDDY_DEBUG: '0', npm_lifecycle_event: 'start', INIT_CWD: dir };
  const r = await new Promise<{ code: number; out: string; err: string }>((done) => {
    execFile(process.execPath, [join(ROOT, 'bin/eddy.js'), '--no-demo', '--no-history', '--format', 'csv', '-f', 'script.sql'], { cwd: ROOT, env }, (error, out, err) => {
      done({ code: error ? 1 : 0, out, err });
    });
  });
  expect(r.err).not.toMatch(/Error/);
  expect(r.code).toBe(0);
  expect(r.out).toContain('n\n2\n');
  expect(readFileSync(join(dir, 'out.csv'), 'utf8')).toBe('a,b\n2,y\n');
}, 120_000);
