/**
 * String literal spellings users paste from PostgreSQL and DuckDB (src/sql/string-literals.ts): dollar quotes
 * `$$...$$` / `$tag$...$tag$` and escape strings `E'...'`, checked against DuckDB for values and column names,
 * wherever a string literal goes (expressions, typed literals, aliases, FROM 'file', COPY ... TO). Where DuckDB
 * answers "NOT IMPLEMENTED" (\u escapes, escaped bytes ≥ 0x80) eddy follows PostgreSQL; those cases check
 * values directly.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ParseError } from '../../src/relnode/errors.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { oracleTable } from '../helpers/oracle-table.js';

const ROWS = [{ k: 1, s: "it's" }, { k: 2, s: 'a\nb' }, { k: 3, s: 'x$$y' }, { k: 4, s: 'tab\there' }];
const { duck, env } = oracleTable('t', { k: 'INTEGER', s: 'VARCHAR' }, ROWS);

const SAME = [
  "SELECT $$it's$$ AS a, $tag$a $$ b$tag$ AS b, $Tag$x$tag$y$Tag$ AS c, $_1$z$_1$ AS d, $$$$ AS e",
  'SELECT $$it\'s$$, $q$ -- not a comment /* nor this */ $q$',
  "SELECT $$a\nb$$ AS a, length($$a\nb$$) AS n",
  "SELECT E'a\\nb' AS a, e'\\t\\r\\b\\f' AS b, E'\\\\' AS c, E'it\\'s' AS d, E'it''s' AS e, E'\\q\\x' AS f",
  "SELECT E'\\x41\\x4a\\x4' AS a, E'\\101\\1\\77\\1234' AS b, E'\\xZZ' AS c",
  "SELECT E'a\\nb'",
  "SELECT k FROM t WHERE s = $$it's$$ OR s = E'a\\nb' OR s = $x$x$$y$x$ OR s = E'tab\\there' ORDER BY k",
  "SELECT k, s || $$!$$ AS s FROM t WHERE s LIKE $$%$$ || 'a' || E'%' ORDER BY k",
  'SELECT DATE $$2024-02-29$$ AS d, CAST($$42$$ AS INTEGER) AS i, $$1.5$$::DOUBLE AS f',
  "SELECT 1 AS $$one$$, 2 AS E'two'",
  "SELECT k FROM t WHERE k IN (1, $$2$$::INTEGER, E'3'::INTEGER) ORDER BY k",
];

describe('dollar-quoted and escape string literals as DuckDB', () => {
  for (const q of SAME) {
    it(q, async () => {
      expectSameResult(fromArrow(await env().sql(q).collect()), await duck().query(q), { ordered: true });
    });
  }
});

describe('where DuckDB has no answer, as PostgreSQL', () => {
  const value = async (sql: string): Promise<unknown> => fromArrow(await env().sql(sql).collect()).rows[0]![0];

  it('\\u and \\U escapes, surrogate pairs joined, escaped bytes spelling UTF-8', async () => {
    expect(await value("SELECT E'\\u00e9\\U0001F600\\uD83D\\uDE00'")).toBe('é😀😀');
    expect(await value("SELECT E'caf\\xC3\\xA9 \\303\\251'")).toBe('café é');
  });

  const error = (sql: string): ParseError => {
    try {
      env().sql(sql);
    } catch (e) {
      if (e instanceof ParseError) return e;
      throw e;
    }
    throw new Error(`no error from ${sql}`);
  };

  it('invalid escapes are syntax errors with a caret under the escape', () => {
    expect(error("SELECT E'ab\\u00e' AS x").message).toBe(
      'line 1, column 12: invalid Unicode escape "\\u00e": Unicode escapes must be \\uXXXX or \\UXXXXXXXX (4 or 8 hex digits)\n' +
      "  1 | SELECT E'ab\\u00e' AS x\n    |            ^^^^^",
    );
    expect(error("SELECT E'\\uD83D' AS x").message).toContain('column 10: invalid Unicode surrogate pair "\\uD83D"');
    expect(error("SELECT E'\\uDE00' AS x").message).toContain('column 10: invalid Unicode surrogate pair "\\uDE00"');
    expect(error("SELECT E'\\uD83Dx' AS x").message).toContain('invalid Unicode surrogate pair');
    expect(error("SELECT E'\\U00110000'").message).toContain('invalid Unicode escape value "\\U00110000"');
    expect(error("SELECT E'\\u0000'").message).toContain('invalid Unicode escape value "\\u0000"');
    expect(error("SELECT E'\\xC3'").message).toContain('column 10: invalid byte sequence "\\xC3": escaped bytes');
    expect(error("SELECT E'x\\xC3\\x28'").message).toContain('column 11: invalid byte sequence "\\xC3\\x28"');
    expect(error("SELECT E'\\0'").message).toContain('invalid escape "\\0": a string cannot hold the NUL character');
    expect(error("SELECT 'ok',\n  E'\\u12'").message).toMatch(/^line 2, column 5: invalid Unicode escape "\\u12"/);
  });

  it('a backslash stays a backslash outside E strings, and in dollar quotes', async () => {
    expect(await value("SELECT '\\n'")).toBe('\\n');
    expect(await value('SELECT $$\\n\\u12$$')).toBe('\\n\\u12');
  });
});

describe('wherever a string literal goes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'eddy-literal-forms-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('COPY ... TO $$path$$ and FROM $$path$$ / read_csv(E\'...\')', async () => {
    const path = join(dir, "it's.csv");
    await env().executeSql(`COPY (SELECT k, s FROM t WHERE k <> 2 ORDER BY k) TO $$${path}$$ (HEADER)`);
    expect(readFileSync(path, 'utf8')).toContain("it's");
    const count = async (sql: string): Promise<unknown> => {
      const r = await env().executeSql(sql);
      if (r.kind !== 'rows') throw new Error(`expected rows, got ${r.message}`);
      return fromArrow(r.table).rows;
    };
    expect(await count(`SELECT count(*) AS n FROM $$${path}$$`)).toEqual([[3]]);
    expect(await count(`SELECT count(*) AS n FROM read_csv(E'${path.replace(/'/g, "\\'")}')`)).toEqual([[3]]);
  });
});
