import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AllowList } from './allowlist.js';
import { compareExact, compareFuzzy, md5Values, sortValues, valueMatches } from './compare.js';
import { engineSpecific, hasTopLevelOrderBy, shimExternalTable, shimNullOrderPragma, sourceOf } from './dialect.js';
import type { EngineResult, SltEngine } from './engine.js';
import { parseSlt } from './records.js';
import { renderByLetter, renderNatural, type ColumnKind, type Value } from './render.js';
import { runText, splitMultilineText, withTimeout } from './run-file.js';
import { summarizeFile, totalsOf } from './summary.js';

/** A fake engine: answers from a handler; 'hang' never resolves (but honours the signal). */
function fake(handler: (sql: string) => EngineResult | Error | 'hang'): SltEngine & { seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    execute(sql, signal) {
      seen.push(sql);
      const r = handler(sql.trim());
      if (r === 'hang') return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('cancelled'))));
      return r instanceof Error ? Promise.reject(r) : Promise.resolve(r);
    },
    close: async () => undefined,
  };
}

function rows(kinds: ColumnKind[], data: Value[][]): EngineResult {
  return { kind: 'rows', names: kinds.map((_, i) => `c${i}`), kinds, rows: data };
}
const OK: EngineResult = { kind: 'status', message: 'OK' };

describe('record parser', () => {
  it('parses statements, queries, conditions, comments and CRLF', () => {
    const text = [
      'hash-threshold 8', '',
      'statement ok', 'CREATE TABLE t(a INTEGER)', '',
      '# a comment does not separate records',
      'skipif mysql # not compatible',
      'onlyif sqlite',
      'query IT rowsort label-1',
      'SELECT a,',
      '# inside',
      '  b FROM t',
      '----',
      '1\tx',
      '2\ty', '',
      'statement error',
      'SELECT nope',
      '----',
      'Binder Error', '',
      'halt', '',
    ].join('\r\n');
    const recs = parseSlt(text);
    expect(recs.map((r) => r.kind)).toEqual(['hash-threshold', 'statement', 'query', 'statement', 'halt']);
    const q = recs[2]!;
    expect(q).toMatchObject({ kind: 'query', types: 'IT', sort: 'rowsort', label: 'label-1', sql: 'SELECT a,\n  b FROM t', expected: ['1\tx', '2\ty'], line: 9 });
    expect(q.conditions).toEqual([{ kind: 'skipif', engine: 'mysql' }, { kind: 'onlyif', engine: 'sqlite' }]);
    expect(recs[3]).toMatchObject({ kind: 'statement', expect: 'error', error: 'Binder Error', sql: 'SELECT nope' });
  });

  it('parses DataFusion headers: inline error text, query error, statement count', () => {
    const recs = parseSlt('statement error DataFusion error: boom\nSELECT 1/\n\nquery error\nSELECT x\n\nstatement count 0\nCREATE TABLE t(a int)\n');
    expect(recs[0]).toMatchObject({ kind: 'statement', expect: 'error', error: 'DataFusion error: boom', sql: 'SELECT 1/' });
    expect(recs[1]).toMatchObject({ kind: 'query', error: '', sql: 'SELECT x' });
    expect(recs[2]).toMatchObject({ kind: 'statement', expect: 'count', count: 0 });
  });

  it('wraps loop and foreach blocks, counting the records inside', () => {
    const recs = parseSlt('foreach type INTEGER BIGINT\n\nstatement ok\nCREATE TABLE t(a ${type})\n\nquery I\nSELECT 1\n----\n1\n\nendloop\n\nstatement ok\nSELECT 2\n');
    expect(recs.map((r) => r.kind)).toEqual(['control', 'statement']);
    expect(recs[0]).toMatchObject({ command: 'foreach' });
    expect(recs[0]!.kind === 'control' && recs[0]!.nested).toHaveLength(2);
  });
});

describe('rendering', () => {
  it('renders by type letter (SQLite rules)', () => {
    expect(renderByLetter(null, 'I', 'integer')).toBe('NULL');
    expect(renderByLetter(-7.9, 'I', 'float')).toBe('-7');
    expect(renderByLetter(-0.5, 'I', 'float')).toBe('0');
    expect(renderByLetter(12n, 'I', 'integer')).toBe('12');
    expect(renderByLetter('12abc', 'I', 'text')).toBe('12');
    expect(renderByLetter(2, 'R', 'integer')).toBe('2.000');
    expect(renderByLetter(1 / 3, 'R', 'float')).toBe('0.333');
    expect(renderByLetter('', 'T', 'text')).toBe('(empty)');
    expect(renderByLetter('a\tb\u00e9', 'T', 'text')).toBe('a@b@');
    expect(renderByLetter(true, 'I', 'boolean')).toBe('1');
  });

  it('renders by the value type (DuckDB rules)', () => {
    expect(renderNatural(true, 'boolean')).toBe('true');
    expect(renderNatural(2.5, 'float')).toBe('2.5');
    expect(renderNatural('', 'text')).toBe('(empty)');
    expect(renderNatural(null, 'text')).toBe('NULL');
  });
});

describe('sorting and hashing', () => {
  it('sorts rendered strings, so "10" < "9"', () => {
    expect(sortValues([['9', 'a'], ['10', 'b']], 'rowsort')).toEqual(['10', 'b', '9', 'a']);
    expect(sortValues([['9', 'a'], ['10', 'b']], 'valuesort')).toEqual(['10', '9', 'a', 'b']);
    expect(sortValues([['9', 'a'], ['10', 'b']], 'nosort')).toEqual(['9', 'a', '10', 'b']);
  });

  it('hashes every value followed by a newline', () => {
    expect(md5Values(['1', '2'])).toBe(createHash('md5').update('1\n2\n').digest('hex'));
  });
});

describe('comparison', () => {
  const r = (kinds: ColumnKind[], data: Value[][]) => ({ kinds, rows: data });

  it('compares exactly by letter, value per line or hash', () => {
    const res = r(['integer', 'float'], [[10, 1.5], [9, 2]]);
    expect(compareExact(['10', '1.500', '9', '2.000'], res, 'IR', 'rowsort')).toEqual({ ok: true });
    expect(compareExact(['10', '1.500', '9', '2.000'], res, 'IR', 'nosort')).toEqual({ ok: true });
    expect(compareExact(['9', '2.000', '10', '1.500'], res, 'IR', 'nosort').ok).toBe(false);
    expect(compareExact(['10\t1.500', '9\t2.000'], res, 'IR', 'rowsort')).toEqual({ ok: true });
    const hash = md5Values(['10', '1.500', '9', '2.000']);
    expect(compareExact([`4 values hashing to ${hash}`], res, 'IR', 'rowsort')).toEqual({ ok: true });
    expect(compareExact([`4 values hashing to ${hash}`], res, 'IR', 'valuesort').ok).toBe(false);
    expect(compareExact(['10', '1.500', '9', '2.001'], res, 'IR', 'rowsort').ok).toBe(false);
  });

  it('casts numbers, treats true/false as 1/0 and tolerates float noise', () => {
    expect(valueMatches('2', 2.0, 'float', 0)).toBe(true);
    expect(valueMatches('2.0', 2, 'integer', 0)).toBe(true);
    expect(valueMatches('1', true, 'boolean', 0)).toBe(true);
    expect(valueMatches('false', 0, 'integer', 0)).toBe(true);
    expect(valueMatches('0.333333', 1 / 3, 'float', 0.01)).toBe(true);
    expect(valueMatches('0.34', 1 / 3, 'float', 1e-9)).toBe(false);
    expect(valueMatches('3', 3.5, 'float', 1e-9)).toBe(false);
    expect(valueMatches('NULL', null, 'integer', 0)).toBe(true);
    expect(valueMatches('(empty)', '', 'text', 0)).toBe(true);
    expect(valueMatches('9223372036854775807', 9223372036854775807n, 'integer', 0)).toBe(true);
  });

  it('compares unordered results as multisets and ordered ones row by row', () => {
    const res = r(['integer', 'text'], [[2, 'b'], [1, 'a'], [1, 'a']]);
    const opts = { separator: 'tab' as const, tolerance: 0 };
    expect(compareFuzzy(['1\ta', '1\ta', '2\tb'], res, 2, 'nosort', { ...opts, order: 'unordered' })).toEqual({ ok: true });
    expect(compareFuzzy(['1\ta', '1\ta', '2\tb'], res, 2, 'nosort', { ...opts, order: 'ordered' }).ok).toBe(false);
    expect(compareFuzzy(['1\ta', '2\tb', '2\tb'], res, 2, 'nosort', { ...opts, order: 'unordered' }).ok).toBe(false);
    expect(compareFuzzy(['1', 'a', '1', 'a', '2', 'b'], res, 2, 'rowsort', { ...opts, order: 'unordered' })).toEqual({ ok: true });
    expect(compareFuzzy(['1', '1', '2', 'a', 'a', 'b'], res, 2, 'valuesort', { ...opts, order: 'unordered' })).toEqual({ ok: true });
  });

  it('splits DataFusion rows on spaces, and falls back to the whole line for text with spaces', () => {
    const opts = { separator: 'space' as const, tolerance: 1e-9, order: 'ordered' as const };
    expect(compareFuzzy(['1 2.5 true'], r(['integer', 'float', 'boolean'], [[1, 2.5, true]]), 3, 'nosort', opts)).toEqual({ ok: true });
    expect(compareFuzzy(['1 Alice Smith'], r(['integer', 'text'], [[1, 'Alice Smith']]), 2, 'nosort', opts)).toEqual({ ok: true });
  });
});

describe('dialects', () => {
  it('detects the source from the path', () => {
    expect(sourceOf('/x/shared/slt/sqlite/test/select1.test')).toBe('sqlite');
    expect(sourceOf('../shared/slt/duckdb/test/sql/cte/test_cte.test')).toBe('duckdb');
    expect(sourceOf('/x/slt/datafusion/datafusion/sqllogictest/test_files/cte.slt')).toBe('datafusion');
    expect(sourceOf('test/slt/joins.slt')).toBe('eddy');
  });

  it('finds a top-level ORDER BY only', () => {
    expect(hasTopLevelOrderBy('SELECT a FROM t ORDER BY a')).toBe(true);
    expect(hasTopLevelOrderBy('SELECT * FROM (SELECT a FROM t ORDER BY a) s')).toBe(false);
    expect(hasTopLevelOrderBy("SELECT 'order by' FROM t")).toBe(false);
    expect(hasTopLevelOrderBy('SELECT recorder BY FROM t')).toBe(false);
    expect(hasTopLevelOrderBy('WITH x AS (SELECT 1 ORDER BY 1) SELECT * FROM x UNION SELECT 2 ORDER\n BY 1')).toBe(true);
  });

  it('marks engine-specific statements of vendored sources', () => {
    expect(engineSpecific('PRAGMA enable_verification', 'duckdb')).toBe('DuckDB PRAGMA');
    expect(engineSpecific('set datafusion.execution.batch_size = 2;', 'datafusion')).toBe('DataFusion setting');
    expect(engineSpecific('EXPLAIN SELECT 1', 'eddy')).toBeUndefined();
  });

  it("shims DuckDB's PRAGMA default_null_order into SET", () => {
    expect(shimNullOrderPragma("PRAGMA default_null_order='NULLS LAST'")).toBe("SET default_null_order = 'nulls_last'");
    expect(shimNullOrderPragma('PRAGMA default_null_order())')).toBe('PRAGMA default_null_order())');
    expect(engineSpecific('PRAGMA default_null_order())', 'duckdb')).toBe('DuckDB PRAGMA');
  });

  it('shims CREATE EXTERNAL TABLE into a read_csv CREATE TABLE AS', () => {
    const sql = "CREATE EXTERNAL TABLE balance STORED as CSV LOCATION '../core/tests/data/recursive_cte/balance.csv' OPTIONS ('format.has_header' 'true');";
    const out = shimExternalTable(sql, '/nowhere/sqllogictest/test_files');
    expect(out).toBe("CREATE TABLE balance AS SELECT * FROM read_csv('/nowhere/sqllogictest/core/tests/data/recursive_cte/balance.csv', header = true)");
    const cols = shimExternalTable("CREATE EXTERNAL TABLE t (\n id VARCHAR, v VARCHAR\n) STORED AS CSV LOCATION 'x/' OPTIONS ('format.has_header' 'false');", '/d');
    expect(cols).toBe("CREATE TABLE t AS SELECT * FROM read_csv('/d/x', header = false) AS t(id, v)");
    expect(shimExternalTable('SELECT 1', '/d')).toBe('SELECT 1');
  });
});

describe('runText', () => {
  const SQLITE = '/suite/slt/sqlite/test/x.test';
  const DUCK = '/suite/slt/duckdb/test/sql/x.test';

  it('runs SQLite files with integer division on, skipif/onlyif by engine names, halt', async () => {
    const text = [
      'statement ok', 'CREATE TABLE t(a INTEGER)', '',
      'skipif postgresql', 'query I nosort', 'SELECT a b FROM t', '----', '1', '',
      'onlyif mysql', 'query I nosort', 'SELECT 1 DIV 1', '----', '1', '',
      'query I rowsort', 'SELECT 7 / 2', '----', '3', '',
      'onlyif eddy', 'halt', '',
      'query I nosort', 'SELECT 1', '----', '1', '',
    ].join('\n');
    const eng = fake((sql) => (sql.startsWith('SELECT 7') ? rows(['integer'], [[3]]) : sql.startsWith('SELECT a') ? rows(['integer'], [[1]]) : OK));
    const run = await runText(SQLITE, text, eng);
    expect(eng.seen[0]).toBe('SET integer_division = true');
    expect(run.counts).toEqual({ passed: 3, failed: 0, skipped: 2, unsupported: 0 });
    const pg = await runText(SQLITE, text, fake((sql) => (sql.startsWith('SELECT 7') ? rows(['integer'], [[3]]) : OK)), { engines: ['eddy', 'postgresql'] });
    expect(pg.counts).toEqual({ passed: 2, failed: 0, skipped: 3, unsupported: 0 });
  });

  it('fails a record on timeout and continues', async () => {
    const text = 'query I nosort\nSELECT slow\n----\n1\n\nquery I nosort\nSELECT 1\n----\n1\n';
    const run = await runText(DUCK, text, fake((sql) => (sql.includes('slow') ? 'hang' : rows(['integer'], [[1]]))), { timeoutMs: 50 });
    expect(run.outcomes.map((o) => o.status)).toEqual(['failed', 'passed']);
    expect(run.outcomes[0]!.reason).toMatch(/timeout after 50 ms/);
  });

  it('times out work that ignores its signal', async () => {
    await expect(withTimeout(20, () => new Promise(() => undefined))).rejects.toThrow(/timeout/);
  });

  it('checks statement errors, counts control records as unsupported, compares DuckDB results as multisets unless ordered', async () => {
    const text = [
      'statement error', 'SELECT boom', '', // any error passes
      'statement error', 'SELECT fine', '',
      'require parquet', '',
      'query I', 'SELECT a FROM t', '----', '1', '2', '',
    ].join('\n');
    const eng = fake((sql) => (sql === 'SELECT boom' ? new Error('Binder Error: boom') : sql === 'SELECT fine' ? rows(['integer'], [[1]]) : rows(['integer'], [[2], [1]])));
    const run = await runText(DUCK, text, eng);
    expect(run.outcomes.map((o) => [o.line, o.status])).toEqual([[1, 'passed'], [4, 'failed'], [7, 'unsupported'], [9, 'unsupported']]);

    const ordered = await runText(DUCK, 'query I\nSELECT a FROM t ORDER BY a\n----\n1\n2\n\nquery I\nSELECT a FROM t\n----\n1\n2\n', fake(() => rows(['integer'], [[2], [1]])));
    expect(ordered.outcomes.map((o) => o.status)).toEqual(['failed', 'passed']);
  });

  it('checks error text in eddy files, and label hashes across queries', async () => {
    const text = [
      'statement error', 'SELECT nope', '----', 'column "nope" not found', '',
      'statement error', 'SELECT nope2', '----', 'something else', '',
      'query I rowsort L1', 'SELECT 1', '----', '1', '',
      'query I rowsort L1', 'SELECT 2', '----', '2', '',
    ].join('\n');
    const eng = fake((sql) => (sql.startsWith('SELECT nope') ? new Error(`column "${sql.slice(7)}" not found`) : rows(['integer'], [[Number(sql.slice(7))]])));
    const run = await runText('/repo/test/slt/x.slt', text, eng);
    expect(run.outcomes.map((o) => o.status)).toEqual(['passed', 'failed', 'passed', 'failed']);
    expect(run.outcomes[3]!.reason).toMatch(/label "L1"/);
  });

  it('fails queries that return the wrong column count or a status', async () => {
    const run = await runText(DUCK, 'query II\nSELECT 1\n----\n1\t2\n\nquery I\nCREATE TABLE x(a INT)\n----\n', fake((sql) => (sql.startsWith('SELECT') ? rows(['integer'], [[1]]) : OK)));
    expect(run.outcomes.map((o) => o.reason)).toEqual(['expected 2 columns, got 1', 'expected rows, got status "OK"']);
  });
});

describe('runner conveniences', () => {
  it('reads a DML status with a row count as a one-row result for `query I`', async () => {
    const run = await runText('/s/slt/duckdb/test/sql/x.test', 'query I\nINSERT INTO t VALUES (1), (2)\n----\n2\n', fake(() => ({ kind: 'status', message: 'INSERT 2', rowsAffected: 2 })));
    expect(run.counts.passed).toBe(1);
  });

  it('splits a one-column multi-line text result (EXPLAIN) into rows, dropping blank lines', () => {
    const r = splitMultilineText({ kind: 'rows', names: ['explain'], kinds: ['text'], rows: [['== A ==\n  x\n\n== B ==']] });
    expect(r.rows).toEqual([['== A =='], ['  x'], ['== B ==']]);
  });

  it('fails the records left when the file deadline has passed', async () => {
    const run = await runText('/s/slt/duckdb/test/sql/x.test', 'query I\nSELECT 1\n----\n1\n\nquery I\nSELECT 1\n----\n1\n', fake(() => rows(['integer'], [[1]])), { deadline: Date.now() - 1 });
    expect(run.outcomes.map((o) => o.reason)).toEqual(['not run: the time budget of the file ran out', 'not run: the time budget of the file ran out']);
  });
});

describe('allow-list and summary', () => {
  it('limits a whole-file entry to failures whose message matches its pattern', () => {
    const allow = AllowList.parse('sqlite/test/select5.test\t*\tfeature\tno join reordering\ttimeout|not run\n');
    expect(allow.lookup('sqlite/test/select5.test', 10, { reason: 'timeout after 10000 ms' })?.reason).toBe('no join reordering');
    expect(allow.lookup('sqlite/test/select5.test', 10, { reason: 'hash mismatch' })).toBeUndefined();
    expect(allow.lookup('sqlite/test/select5.test', 10, {})).toBeUndefined();
  });

  it('parses entries, marks allowed failures and reports allow-listed records that pass', async () => {
    const allow = AllowList.parse('# comment\nduckdb/test/sql/x.test\t1\tbug\tknown bug\nduckdb/test/sql/x.test\t6\tfeature\twindow functions\nduckdb/test/sql/x.test\t11\tbug\tfixed now\n');
    expect(() => AllowList.parse('a\t1\tnope\treason')).toThrow(/allowlist line 1/);
    const text = 'query I\nSELECT 1\n----\n2\n\nquery I\nSELECT 1\n----\n3\n\nquery I\nSELECT 1\n----\n1\n\nquery I\nSELECT 1\n----\n4\n';
    const run = await runText('/s/slt/duckdb/test/sql/x.test', text, fake(() => rows(['integer'], [[1]])));
    const s = summarizeFile('duckdb/test/sql/x.test', run, allow, 1);
    expect(s.allowedFailures).toBe(2);
    expect(s.featureFailures).toBe(1);
    expect(s.unexpected.map((u) => u.line)).toEqual([16]);
    expect(s.nowPassing).toEqual([{ line: 11, reason: 'fixed now', status: 'passed' }]);
    const t = totalsOf([s]);
    expect(t.passRate).toBeCloseTo(1 / 4);
    expect(t.supportedPassRate).toBeCloseTo(1 / 3);
  });
});

describe('triage', () => {
  it('classifies failures by rule and follows cascades from failed statements', async () => {
    const { classify, triageFile } = await import('./triage.js');
    expect(classify({ file: 'duckdb/x.test', line: 1, reason: 'unexpected error: unknown function "nvl"' })).toEqual({ category: 'feature', why: 'function nvl is not implemented' });
    const out = triageFile('duckdb/x.test', [
      { line: 3, reason: 'unexpected error: range takes one file path as a string literal', sql: 'CREATE TABLE t AS SELECT * FROM range(10)' },
      { line: 9, reason: 'row 1: expected "45", got "NULL"', sql: 'SELECT sum(i) FROM t' },
      { line: 12, reason: 'row 1: expected "1", got "2"', sql: 'SELECT 1 FROM other' },
    ]);
    expect(out.map((o) => [o.line, o.category])).toEqual([[3, 'feature'], [9, 'feature'], [12, 'UNTRIAGED']]);
    expect(out[1]!.why).toBe('depends on the failed statement at line 3 (table function range() is not implemented)');
  });
});
