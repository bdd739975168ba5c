/**
 * The `eddy` command end to end: child processes of `bin/eddy.js` (the shell's
 * bundle, brought up to date by test/global-setup.ts) on the tiny TPC-H scale
 * factor, with the real SQL layer. Few spawns, run concurrently.
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileTempDir, testTempDir } from '../helpers/temp-dir.js';

const ROOT = resolve(__dirname, '../..');
const EDDY = join(ROOT, 'bin/eddy.js');
const dir = fileTempDir('eddy-cli-');

interface Run { code: number | null; out: string; err: string }

/** Runs `eddy args...` with `input` on stdin (a pipe, so never interactive). */
function eddy(args: string[], input = ''): Promise<Run> {
  return new Promise((done) => {
    const child = execFile(process.execPath, [EDDY, '--sf', '0.01', ...args], { cwd: ROOT, env: { ...process.env, EDDY_DEBUG: '0' } }, (error, out, err) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out, err });
    });
    child.stdin!.end(input);
  });
}

const noStackTrace = (text: string): void => expect(text).not.toMatch(/\n\s+at .+[:(]/);

// Child processes start the engine: seconds each on a loaded machine, hence the long timeout.
describe.concurrent('eddy (non-interactive)', { timeout: 180_000 }, () => {
  it('-c runs several statements, prints aligned tables and stops at .quit with success', async () => {
    const r = await eddy(['-c', 'SELECT count(*) AS n FROM nation; SELECT n_name, n_regionkey FROM nation ORDER BY n_nationkey LIMIT 2;\n.quit\nSELCT']);
    expect(r).toEqual({
      code: 0,
      err: '',
      out: [
        '┌────────┐', '│      n │', '│ bigint │', '├────────┤', '│     25 │', '└────────┘', '1 row',
        '┌───────────┬─────────────┐', '│ n_name    │ n_regionkey │', '│ varchar   │     integer │', '├───────────┼─────────────┤',
        '│ ALGERIA   │           0 │', '│ ARGENTINA │           1 │', '└───────────┴─────────────┘', '2 rows', '',
      ].join('\n'),
    });
  });

  it('reads SQL and dot commands from stdin', async () => {
    const r = await eddy([], 'SELECT count(*) AS n FROM lineitem;\n.mode csv\nSELECT r_name FROM region\n  ORDER BY r_regionkey\n  LIMIT 2;\n.mode json\nSELECT 1 AS a, NULL AS b;\n');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^┌[\s\S]*│ +\d+ │[\s\S]*1 row\nr_name\nAFRICA\nAMERICA\n\[\{"a":1,"b":null\}\]\n$/);
  });

  it('-f with --format csv and stdout redirected to a file: a clean CSV file, exact values, status lines on stderr', async () => {
    const script = join(dir, 'ok.sql');
    writeFileSync(script, [
      '-- setup',
      'CREATE TABLE t (a INTEGER, b VARCHAR, x DOUBLE, big BIGINT);',
      "INSERT INTO t VALUES (1, 'x,y', 1e-10, 9007199254740993), (2, NULL, 1e300, -1);",
      'SELECT a, b, 1/3 AS third, x, big FROM t ORDER BY a;', '',
    ].join('\n'));
    const outFile = join(dir, 'out.csv');
    const fd = openSync(outFile, 'w');
    const r = await new Promise<{ code: number | null; err: string }>((done) => {
      const child = spawn(process.execPath, [EDDY, '--no-demo', '--format', 'csv', '-f', script], { cwd: ROOT, stdio: ['ignore', fd, 'pipe'] });
      let err = '';
      child.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
      child.on('close', (code) => done({ code, err }));
    });
    closeSync(fd);
    expect(r).toEqual({ code: 0, err: 'CREATE TABLE\nINSERT 2\n' });
    expect(readFileSync(outFile, 'utf8')).toBe('a,b,third,x,big\n1,"x,y",0.3333333333333333,1e-10,9007199254740993\n2,,0.3333333333333333,1e+300,-1\n');
  });

  it('a script stops at its first error: exit code 1, the file and line on stderr, no stack trace', async () => {
    const bad = join(dir, 'bad.sql');
    writeFileSync(bad, 'SELECT 1 AS a;\n\nSELECT nope\n  FROM nation;\nSELECT 2 AS a;\n');
    const r = await eddy(['--format', 'json', bad]);
    expect(r.code).toBe(1);
    expect(r.out).toBe('[{"a":1}]\n');
    expect(r.err).toMatch(new RegExp(`^${bad}: Error: line 3, column 8: column "nope" not found[^\\n]*\\n  3 \\| SELECT nope\\n +\\| +\\^+\\n$`));
  });

  it('with --keep-going a script prints each error and goes on; the exit code is still 1', async () => {
    const bad = join(dir, 'keep-going.sql');
    writeFileSync(bad, 'SELECT 1 AS a;\nSELECT nope FROM nation;\nSELCT 2;\nSELECT 3 AS a;\n');
    const r = await eddy(['--format', 'json', '--keep-going', bad, '-c', "SELECT 4 AS a; SELECT CAST('x' AS INTEGER)"]);
    expect(r.code).toBe(1);
    expect(r.out).toBe('[{"a":1}]\n[{"a":3}]\n[{"a":4}]\n');
    expect(r.err).toMatch(/column "nope" not found[\s\S]*Syntax error: line 3[\s\S]*could not convert/i);
    noStackTrace(r.err);
    // Every statement succeeds: exit code 0; `.quit` still ends the run.
    const ok = await eddy(['--format', 'json', '-k', '-c', 'SELECT 1 AS a;\n.quit\nSELECT 2 AS a;']);
    expect(ok).toEqual({ code: 0, out: '[{"a":1}]\n', err: '' });
    // From stdin too.
    const piped = await eddy(['--format', 'json', '-k'], 'SELECT nope;\nSELECT 5 AS a;\n');
    expect(piped.code).toBe(1);
    expect(piped.out).toBe('[{"a":5}]\n');
  });

  it('piped SQL: dollar quotes and escape strings span lines and hold ";", FROM-first queries run, an unclosed $$ is an error at the end', async () => {
    const input = [
      "SELECT $$it's; a", "two-line text$$ AS d, E'tab\\there' AS e;",
      'FROM region SELECT r_name WHERE r_regionkey < 2 ORDER BY r_name;',
      'SELECT $q$ never closed;', '',
    ].join('\n');
    const r = await eddy(['--format', 'json', '-k'], input);
    expect(r.out).toBe('[{"d":"it\'s; a\\ntwo-line text","e":"tab\\there"}]\n[{"r_name":"AFRICA"},\n{"r_name":"AMERICA"}]\n');
    expect(r.err).toMatch(/^Syntax error: line 4, column 8: unterminated dollar-quoted string: "\$q\$" has no closing "\$q\$"\n[\s\S]*\^\^\^/);
    expect(r.code).toBe(1);
    noStackTrace(r.err);
  });

  it('prints syntax errors with a caret and never a stack trace', async () => {
    const r = await eddy(['-c', 'SELECT 1 AS a; SELCT 2']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/1 row\n$/);
    expect(r.err).toMatch(/^Syntax error: line 1, column 1: .*"SELCT"[\s\S]*\^/);
    noStackTrace(r.err);
  });

  it('a missing script is an error', async () => {
    expect(await eddy(['--no-demo', '-f', join(dir, 'missing.sql')])).toEqual({ code: 1, out: '', err: `Error: cannot read ${join(dir, 'missing.sql')}: no such file\n` });
  });
});

/** Drives the REPL in a real pseudo-terminal through util-linux `script`, when it exists. */
function hasScript(): boolean {
  return spawnSync('script', ['--version']).status === 0;
}

describe.skipIf(!hasScript())('eddy (interactive, in a pseudo-terminal)', () => {
  it('shows prompts, runs queries, handles Ctrl-C and .quit', async () => {
    const home = testTempDir('eddy-home-');
    const child = spawn('script', ['-qec', `${process.execPath} ${EDDY} --sf 0.01`, '/dev/null'], { cwd: ROOT, env: { ...process.env, HOME: home, EDDY_HISTORY: '', TERM: 'dumb', COLUMNS: '100' } });
    let screen = '';
    child.stdout.on('data', (d: Buffer) => { screen += d.toString(); });
    const exited = new Promise<number | null>((r) => child.on('exit', r));
    // eslint-disable-next-line no-control-regex
    const plain = (): string => screen.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');
    const waitFor = async (re: RegExp): Promise<void> => {
      for (let i = 0; i < 3000 && !re.test(plain()); i++) await new Promise((r) => setTimeout(r, 20));
      expect(plain()).toMatch(re);
    };
    try {
      await waitFor(/eddy> $/);
      child.stdin.write('SELECT count(*) AS n\r');
      await waitFor(/ {2}\.\.> $/);
      child.stdin.write('FROM region;\r');
      await waitFor(/│ +5 │[\s\S]*1 row \([\d.]+ m?s\)\neddy> $/);
      child.stdin.write('\x03');
      await waitFor(/\(press Ctrl-C again or type \.quit to exit\)\neddy> $/);
      child.stdin.write('.quit\r');
      expect(await exited).toBe(0);
      expect(plain()).toContain('TPC-H tables (scale factor 0.01), generated in');
    } finally {
      child.kill();
    }
  });
});
