import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testTempDir } from '../helpers/temp-dir.js';
import { TableEnvironment } from '../../src/api/environment.js';
import { runRepl } from '../../src/cli/repl.js';
import { Session } from '../../src/cli/session.js';
import { installFakeSql } from './helpers/fake-sql.js';

// eslint-disable-next-line no-control-regex
const strip = (s: string): string => s.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');

/** Drives the REPL as a terminal would: keystrokes in, screen text out. */
function startRepl(options: { historyFile?: string } = {}) {
  const input = new PassThrough();
  const output = Object.assign(new PassThrough(), { isTTY: true }); // a terminal: status lines and timings go with the results
  const err = new PassThrough();
  let screen = '';
  output.on('data', (d: Buffer) => { screen += d.toString(); });
  err.on('data', (d: Buffer) => { screen += d.toString(); });
  const env = TableEnvironment.create();
  env.registerTable('nation', env.fromRecords([{ n_nationkey: 1, n_name: 'FRANCE' }]));
  const session = new Session(env, { out: output, err }, { timing: true });
  const done = runRepl(session, { input, output, terminal: true, ...options });
  let mark = 0;
  return {
    done,
    /** Sends keys (each call is one chunk, as typing is). */
    keys(s: string): void { input.write(s); },
    /** Waits until the screen, after the last match, shows `re`; returns that text. */
    async waitFor(re: RegExp): Promise<string> {
      for (let i = 0; i < 250; i++) {
        const text = strip(screen.slice(mark));
        if (re.test(text)) { mark = screen.length; return text; }
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`timed out waiting for ${re}; screen:\n${strip(screen)}`);
    },
    get screen(): string { return strip(screen); },
  };
}

let restoreSql: () => void = () => {};
beforeAll(() => { restoreSql = installFakeSql(); });
afterAll(() => restoreSql());

describe('REPL (driven through streams in terminal mode)', () => {
  it('runs statements, continues lines until ";", prints timings and quits', async () => {
    const r = startRepl();
    await r.waitFor(/eddy> $/);
    r.keys('SELECT 7; SELECT 8;\r');
    const both = await r.waitFor(/1 row \(\d+ ms\)[\s\S]*1 row \(\d+ ms\)\neddy> $/);
    expect(both).toMatch(/│ +7 │[\s\S]*│ +8 │/);
    r.keys('SELECT\r');
    await r.waitFor(/ {2}\.\.> $/);
    r.keys('9;\r');
    expect(await r.waitFor(/eddy> $/)).toMatch(/│ +9 │/);
    r.keys('INSERT INTO t VALUES (1);\r');
    expect(await r.waitFor(/eddy> $/)).toMatch(/INSERT 3 \(\d+ ms\)/);
    r.keys('.quit\r');
    await r.done;
  });

  it('an open dollar quote or escape string continues on the next line, ";" and all', async () => {
    const r = startRepl();
    await r.waitFor(/eddy> $/);
    r.keys("SELECT $body$ it's; still text\r");
    expect(await r.waitFor(/ {2}\.\.> $/)).not.toContain('unexpected'); // no statement ran at the ";"
    r.keys('$body$;\r');
    // The fake engine runs only `SELECT n`: one error, for the one two-line statement.
    expect((await r.waitFor(/eddy> $/)).match(/unexpected "SELECT"/g)).toHaveLength(1);
    r.keys("SELECT E'it\\'s;\r");
    expect(await r.waitFor(/ {2}\.\.> $/)).not.toContain('unexpected');
    r.keys("';\r");
    expect((await r.waitFor(/eddy> $/)).match(/unexpected "SELECT"/g)).toHaveLength(1);
    r.keys('SELECT 5;\r');
    expect(await r.waitFor(/eddy> $/)).toMatch(/│ +5 │/);
    r.keys('.quit\r');
    await r.done;
  });

  it('prints errors without stack traces and keeps going', async () => {
    const r = startRepl();
    r.keys('SELCT 1;\r');
    const parse = await r.waitFor(/eddy> $/);
    expect(parse).toContain('line 1, column 1: unexpected "SELCT"');
    r.keys('BUG;\r');
    const bug = await r.waitFor(/eddy> $/);
    expect(bug).toContain("internal error (a bug in eddy): TypeError: Cannot read properties of undefined (reading 'x') — please report it");
    expect(bug).not.toMatch(/\n\s+at /);
    r.keys('.nosuch\r');
    expect(await r.waitFor(/eddy> $/)).toContain('unknown command ".nosuch"');
    r.keys('.tables\r');
    expect(await r.waitFor(/eddy> $/)).toContain('nation');
    r.keys('exit\r');
    await r.done;
  });

  it('Ctrl-C cancels the running statement, clears a half-typed one, and twice at an empty prompt exits', async () => {
    const r = startRepl();
    await r.waitFor(/eddy> $/);
    r.keys('SLOW; SELECT 5;\r');
    r.keys('SELECT 6;\r'); // typed ahead
    await new Promise((res) => setTimeout(res, 50));
    r.keys('\x03');
    const cancelled = await r.waitFor(/eddy> $/);
    expect(cancelled).toContain('Query cancelled');
    expect(cancelled).not.toMatch(/│ +[56] │/); // the rest of the line and the typed-ahead line were dropped
    r.keys('SELECT');
    r.keys('\r');
    await r.waitFor(/\.\.> $/);
    r.keys('\x03');
    await r.waitFor(/eddy> $/);
    r.keys('1;\r'); // the half-typed SELECT was dropped: "1" alone is a new statement
    expect(await r.waitFor(/eddy> $/)).toContain('unexpected "1"');
    r.keys('\x03');
    expect(await r.waitFor(/eddy> $/)).toContain('(press Ctrl-C again or type .quit to exit)');
    r.keys('\x03');
    await r.done;
  });

  it('Ctrl-D exits', async () => {
    const r = startRepl();
    await r.waitFor(/eddy> $/);
    r.keys('\x04');
    await r.done;
  });

  it('completes table, column and keyword names with Tab', async () => {
    const r = startRepl();
    await r.waitFor(/eddy> $/);
    r.keys('SELECT n_nam');
    r.keys('\t');
    await r.waitFor(/n_name$/);
    r.keys(' FROM nat');
    r.keys('\t');
    r.keys('\t'); // two candidates: the second Tab lists them
    expect(await r.waitFor(/natural/)).toContain('nation');
    r.keys('\x03');
    r.keys('.quit\r');
    await r.done;
  });

  it('keeps a bounded history file, one entry per statement', async () => {
    const dir = testTempDir('eddy-history-');
    const historyFile = join(dir, 'history');
    writeFileSync(historyFile, 'SELECT 1;\n');
    const r = startRepl({ historyFile });
    await r.waitFor(/eddy> $/);
    r.keys('\x1b[A'); // Up: the saved entry comes back
    await r.waitFor(/SELECT 1;$/);
    r.keys('\x15'); // Ctrl-U clears the line
    r.keys('SELECT -- the answer\r');
    r.keys('42;\r');
    await r.waitFor(/│ +42 │[\s\S]*eddy> $/);
    r.keys('.quit\r');
    await r.done;
    expect(readFileSync(historyFile, 'utf8')).toBe('SELECT 1;\nSELECT 42;\n.quit\n');
  });
});
