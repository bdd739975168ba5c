/**
 * The edge sweep's open items (edge-sweep.test.ts's EXCEPTIONS), as a user meets them, against DuckDB:
 * regexp_extract / regexp_replace of a group that did not take part in the match, ILIKE's escape
 * character and case, the errors of INTERVAL arithmetic past the TIMESTAMP range, and error messages
 * that show an argument as written rather than the implicit CAST the binder added. Over a column at
 * parallelism 1 and 2 (the stage on worker threads) as well as with constants.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExecutionError, TableEnvironment } from '../../src/index.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { loadRows, openDuck, type Duck } from '../helpers/duckdb.js';
import { failure, firstLine } from '../helpers/failure.js';

/** Texts, LIKE patterns and escapes: mixed case, escapes that are letters, non-ASCII. */
const LIKE_ROWS = [
  { k: 1, s: 'A%b', p: 'a$%B', e: '$' },
  { k: 2, s: 'A_b', p: 'aX_B', e: 'x' },
  { k: 3, s: 'AxB', p: 'aXXB', e: 'x' },
  { k: 4, s: 'Ab1 é%_', p: 'Ab1 é%_', e: 'a' },
  { k: 5, s: 'É%', p: 'é!%', e: '!' },
  { k: 6, s: 'ÉCOLE', p: 'é%', e: '!' },
  { k: 7, s: 'Straße', p: 'STRASSE', e: '!' },
  { k: 8, s: 'ΣΑΣ', p: 'σασ', e: '!' },
  { k: 9, s: 'a_c', p: 'A#_C', e: '#' },
  { k: 10, s: 'abc', p: 'A#_C', e: '#' },
  { k: 11, s: 'İx', p: 'i_', e: '!' },
  { k: 12, s: 'x', p: 'X', e: '' },
  { k: 13, s: null, p: 'a', e: '!' },
  { k: 14, s: 'a', p: null, e: '!' },
];
const LIKE_TYPES = { k: 'INTEGER', s: 'VARCHAR', p: 'VARCHAR', e: 'VARCHAR' } as const;

let envs: [string, TableEnvironment][];
let duck: Duck;

beforeAll(async () => {
  const p1 = TableEnvironment.create({ parallelism: 1 });
  // Every stage on worker threads, none on the calling thread: a worker raises the error.
  const p2 = TableEnvironment.create({ parallelism: 2, workers: 'always', callingThreadShare: false });
  envs = [['p1', p1], ['p2', p2]];
  for (const [, e] of envs) e.registerTable('l', e.fromRecords(LIKE_ROWS, LIKE_TYPES));
  duck = await openDuck();
  await loadRows(duck, 'l', LIKE_TYPES, LIKE_ROWS);
});

afterAll(async () => {
  for (const [, e] of envs ?? []) await e.close();
  duck?.close();
});


describe('regexp groups that did not take part in the match', () => {
  it("regexp_extract gives '' for them, regexp_replace inserts nothing, as DuckDB, over constants and columns", async () => {
    const q = `SELECT k, regexp_extract(s, 'a(x)?b', 1) AS a, regexp_extract(s, '(x)|(b)', 1) AS b, regexp_extract(s, '(x)|(b)', 2) AS c,
      regexp_extract(s, '(é)?(%)', 1) AS d, regexp_replace(s, 'a(x)?b', '[\\1]', 'i') AS r, regexp_replace(s, '(x)?(b)', '<\\1\\2>', 'gi') AS g,
      regexp_extract('abc', 'a(x)?b', 1) AS ca, regexp_replace('abc', 'a(x)?b', '[\\1]') AS cr
      FROM l ORDER BY k`;
    const want = await duck.query(q);
    // Not vacuous: non-participating groups give '' (not NULL) in DuckDB.
    expect(want.rows[0]!.slice(1, 3)).toEqual(['', '']);
    for (const [, env] of envs) expectSameResult(fromArrow(await env.sql(q).collect()), want, { ordered: true });
  });
});

describe('ILIKE and its escape character', () => {
  it("ilike_escape and ILIKE ... ESCAPE give DuckDB's results for lower-case and caseless escapes, per row and constant", async () => {
    const q = `SELECT k, ilike_escape(s, p, e) AS f, s ILIKE p ESCAPE e AS o, s NOT ILIKE p ESCAPE e AS n, like_escape(s, p, e) AS lk,
      s ILIKE p AS i FROM l ORDER BY k`;
    const want = await duck.query(q);
    for (const [, env] of envs) expectSameResult(fromArrow(await env.sql(q).collect()), want, { ordered: true });
    // Constant patterns (compiled once), one per row's pattern.
    const [, env] = envs[0]!;
    for (const r of LIKE_ROWS.filter((x) => x.s !== null && x.p !== null)) {
      const c = `SELECT ilike_escape('${r.s}', '${r.p}', '${r.e}') AS f, '${r.s}' ILIKE '${r.p}' ESCAPE '${r.e}' AS o`;
      expectSameResult(fromArrow(await env.sql(c).collect()), await duck.query(c));
    }
  });

  it('an upper-case escape escapes at either case (DuckDB ignores it: it looks for it in the lower-cased pattern)', async () => {
    const [, env] = envs[0]!;
    const q = "SELECT 'A_b' ILIKE 'aX_B' ESCAPE 'X' AS a, 'A_b' ILIKE 'ax_B' ESCAPE 'X' AS b, 'AXb' ILIKE 'aXXB' ESCAPE 'X' AS c, 'AXb' ILIKE 'aX_B' ESCAPE 'X' AS d, 'ab' LIKE 'aX_B' ESCAPE 'X' AS e";
    expect(fromArrow(await env.sql(q).collect()).rows).toEqual([[true, true, true, false, false]]);
    // The lower-case escape gives the same results, in both engines.
    const lower = q.replaceAll("ESCAPE 'X'", "ESCAPE 'x'");
    expect((await duck.query(lower)).rows).toEqual([[true, true, true, false, false]]);
    expect(fromArrow(await env.sql(lower).collect()).rows).toEqual([[true, true, true, false, false]]);
    // A pattern ending in the escape, at either case, is an error (DuckDB: no match).
    expect(firstLine(await failure(env, "SELECT 'ax' ILIKE 'ax' ESCAPE 'X'"))).toBe('line 1, column 8: LIKE pattern must not end with the escape character "X": "ax"');
    expect(fromArrow(await env.sql("SELECT 'ax' LIKE 'ax' ESCAPE 'X' AS v").collect()).rows).toEqual([[true]]);
  });
});

const RANGE = 'TIMESTAMP values lie between 271822-04-20 (BC) and 275760-09-13';

describe('INTERVAL arithmetic past the TIMESTAMP range names the operation written', () => {
  it('constants: the operator and the operands with their types, in the order written', async () => {
    const [, env] = envs[0]!;
    expect(firstLine(await failure(env, "SELECT TIMESTAMP '275760-09-13 00:00:00' + INTERVAL 1 DAY"))).toBe(`line 1, column 8: timestamp out of range: TIMESTAMP '275760-09-13 00:00:00' + INTERVAL 1 DAY is past the range of TIMESTAMP (${RANGE})`);
    expect(firstLine(await failure(env, "SELECT INTERVAL '1' DAY + TIMESTAMP '275760-09-13 00:00:00'"))).toBe(`line 1, column 8: timestamp out of range: INTERVAL '1' DAY + TIMESTAMP '275760-09-13 00:00:00' is past the range of TIMESTAMP (${RANGE})`);
    expect(firstLine(await failure(env, "SELECT DATE '0001-01-01' - INTERVAL 300000 YEAR"))).toBe(`line 1, column 8: timestamp out of range: DATE '0001-01-01' - INTERVAL 300000 YEAR is past the range of TIMESTAMP (${RANGE})`);
    // DuckDB refuses them too.
    await expect(duck.query("SELECT DATE '9999-12-31' + INTERVAL 10000000 YEAR")).rejects.toThrow(/out of range/);
  });

  it('columns, at p1 and p2: the value and the interval, then the expression as written, the caret under it', async () => {
    for (const [name, env] of envs) {
      const t = await failure(env, "SELECT to_timestamp(k) - INTERVAL 300000 YEAR FROM l WHERE k = 1");
      expect(t, name).toBeInstanceOf(ExecutionError);
      expect(t.message, name).toBe(`line 1, column 8: timestamp out of range: TIMESTAMP '1970-01-01 00:00:01' - INTERVAL 300000 YEAR is past the range of TIMESTAMP (${RANGE}) in to_timestamp(k) - INTERVAL 300000 YEAR
  1 | SELECT to_timestamp(k) - INTERVAL 300000 YEAR FROM l WHERE k = 1
    |        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^`);
      const d = await failure(env, "SELECT CAST('2020-01-01' AS DATE) + k + INTERVAL 100000000 DAY FROM l WHERE k = 1");
      expect(firstLine(d), name).toBe(`line 1, column 8: could not cast DATE value 275810-09-15 to TIMESTAMP for the result of CAST('2020-01-01' AS DATE) + k + INTERVAL 100000000 DAY: out of range (${RANGE})`);
      const m = await failure(env, "SELECT CAST('2020-01-01' AS DATE) + k - INTERVAL 30000000 YEAR FROM l WHERE k = 1");
      expect(firstLine(m), name).toBe("line 1, column 8: date out of range: add_months(DATE '2020-01-02', -360000000) is past the range of DATE (DATE values lie between 5877642-06-24 (BC) and 5881580-07-11) in CAST('2020-01-01' AS DATE) + k - INTERVAL 30000000 YEAR");
    }
  });
});

describe('errors show expressions as written, not the casts the binder added', () => {
  it('a failed implicit conversion names the argument, with the caret under it', async () => {
    for (const [name, env] of envs) {
      const e = await failure(env, 'SELECT left(s, k * 1e300) FROM l WHERE k = 1');
      expect(e, name).toBeInstanceOf(ExecutionError);
      expect(e.message, name).toBe(`line 1, column 16: could not cast DOUBLE value 1e+300 to INTEGER for argument 2 of left: out of range
  1 | SELECT left(s, k * 1e300) FROM l WHERE k = 1
    |                ^^^^^^^^^`);
      const m = await failure(env, 'SELECT make_timestamp(k * 1e300) FROM l WHERE k = 1');
      expect(firstLine(m), name).toBe('line 1, column 23: could not cast DOUBLE value 1e+300 to BIGINT for argument 1 of make_timestamp: out of range');
    }
    // DuckDB refuses the conversion too (it has no implicit DOUBLE to INTEGER argument conversion).
    await expect(duck.query('SELECT CAST(k * 1e300 AS INTEGER) FROM l WHERE k = 1')).rejects.toThrow(/out of range/i);
  });

  it('a runtime error quotes its expression as written (no implicit CAST, no added parentheses)', async () => {
    for (const [name, env] of envs) {
      const e = await failure(env, 'SELECT sqrt(k  -  3) FROM l');
      expect(firstLine(e), name).toBe('line 1, column 8: cannot take square root of a negative number: sqrt(-2) in sqrt(k  -  3)');
      const o = await failure(env, 'SELECT k * 2147483647 + 5 FROM l WHERE k = 1');
      expect(firstLine(o), name).toBe('line 1, column 8: integer overflow: 2147483647 + 5 is out of range for INTEGER in k * 2147483647 + 5');
    }
    // Without a place in SQL text (the Table API), the bound expression is shown.
    const [, env] = envs[0]!;
    const { col } = await import('../../src/index.js');
    const t = await env.from('l').select(col('s').cast('INTEGER')).collect().then(() => undefined, (x: unknown) => x) as Error;
    expect(t.message).toBe("could not convert string 'A%b' to INTEGER in CAST(s AS INTEGER)");
  });
});

describe('located errors carry their place as a field', () => {
  it('parse, bind and runtime errors (on the calling thread and from a worker) have location; the message is placed once', async () => {
    const { ParseError, ValidationError: VE, col } = await import('../../src/index.js');
    for (const [name, env] of envs) {
      const p = await failure(env, 'SELECT 1 +');
      expect(p, name).toBeInstanceOf(ParseError);
      expect((p as ExecutionError).location, name).toEqual({ line: 1, column: 11 });
      expect(p.message.startsWith('line 1, column 11: '), name).toBe(true);
      const b = await failure(env, 'SELECT\n  nope FROM l');
      expect(b, name).toBeInstanceOf(VE);
      expect((b as ExecutionError).location, name).toEqual({ line: 2, column: 3 });
      const r = await failure(env, 'SELECT k,\n  sqrt(k - 3) FROM l');
      expect(r, name).toBeInstanceOf(ExecutionError);
      expect((r as ExecutionError).location, name).toEqual({ line: 2, column: 3 });
      // One place: no second "line" prefix, one caret block.
      expect(r.message.match(/line \d+, column \d+/g), name).toEqual(['line 2, column 3']);
      const t = await env.from('l').select(col('s').cast('INTEGER')).collect().then(() => undefined, (x: unknown) => x) as ExecutionError;
      expect(t.location, name).toBeUndefined();
    }
  });

  it('an INSERT whose bind error is already placed keeps its place; an unplaced one is placed at the statement', async () => {
    const [, env] = envs[0]!;
    await env.executeSql('CREATE TABLE ins (a INTEGER)');
    const placed = await env.executeSql("INSERT INTO ins SELECT nope FROM l").then(() => undefined, (x: unknown) => x) as ExecutionError;
    expect(placed.location).toEqual({ line: 1, column: 24 });
    expect(placed.message.match(/line \d+, column \d+/g)).toEqual(['line 1, column 24']);
    // insertInto's own error has no place in SQL: the statement is its place.
    const unplaced = await env.executeSql("SELECT 1;\nINSERT INTO ins (b) SELECT k FROM l").then(() => undefined, (x: unknown) => x) as ExecutionError;
    expect(unplaced.location).toEqual({ line: 2, column: 1 });
    expect(unplaced.message.split('\n')[0]).toMatch(/ failed: line 2, column 1: table "ins" has no column "b" \(columns: a\)$/);
  });
});
