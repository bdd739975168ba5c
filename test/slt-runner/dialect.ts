/**
 * Per-source options of the runner: where a file comes from (SQLite, DuckDB,
 * DataFusion, or eddy's own files) decides how results render and compare,
 * which statements run first, which statements are engine-specific (counted
 * as unsupported), and which SQL is shimmed before it runs.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';

/** The origin of a test file. */
export type Source = 'sqlite' | 'duckdb' | 'datafusion' | 'eddy';

/** How the runner treats files of one source. */
export interface Dialect {
  readonly source: Source;
  /** `exact`: render by type letter and compare strings (SQLite); `fuzzy`: DuckDB-style casting comparison. */
  readonly compare: 'exact' | 'fuzzy';
  /** Value separator inside an expected row (fuzzy mode). */
  readonly separator: 'tab' | 'space';
  /** Relative tolerance for doubles (fuzzy mode). */
  readonly tolerance: number;
  /** The format's initial hash threshold (what a result writer hashes above; verification goes by the expected block's form). */
  readonly hashThreshold: number;
  /** Statements run before the file's first record. */
  readonly setup: readonly string[];
  /** Check the expected error text of `statement error` (substring or regex); vendored engines' messages are their own. */
  readonly checkErrorText: boolean;
  /** Compare multi-row `nosort` results without a top-level ORDER BY as multisets. */
  readonly unorderedNosort: boolean;
}

/** The source of a file, from its path (`.../sqlite/...`, `.../duckdb/...`, `.../datafusion/...`, else eddy's own). */
export function sourceOf(path: string): Source {
  const p = resolve(path).split(sep).join('/');
  const m = /\/slt\/(sqlite|duckdb|datafusion)\//.exec(p);
  if (m) return m[1] as Source;
  if (/\/sqlite\/test\//.test(p)) return 'sqlite';
  if (/\/duckdb\/test\//.test(p)) return 'duckdb';
  if (/\/sqllogictest\/test_files\//.test(p)) return 'datafusion';
  return 'eddy';
}

/** The options for a source. */
export function dialectFor(source: Source): Dialect {
  switch (source) {
    case 'sqlite':
      // SQLite's `/` truncates on integers; DuckDB's own runner turns integer division on the same way.
      return { source, compare: 'exact', separator: 'tab', tolerance: 0, hashThreshold: 8, setup: ['SET integer_division = true'], checkErrorText: false, unorderedNosort: false };
    case 'duckdb':
      return { source, compare: 'fuzzy', separator: 'tab', tolerance: 0.01, hashThreshold: 0, setup: [], checkErrorText: false, unorderedNosort: true };
    case 'datafusion':
      return { source, compare: 'fuzzy', separator: 'space', tolerance: 1e-9, hashThreshold: 0, setup: [], checkErrorText: false, unorderedNosort: true };
    case 'eddy':
      return { source, compare: 'fuzzy', separator: 'tab', tolerance: 1e-9, hashThreshold: 0, setup: [], checkErrorText: true, unorderedNosort: true };
  }
}

/** Engine-specific statements of each vendored source: they configure that engine, not SQL semantics. */
const ENGINE_SPECIFIC: Readonly<Record<Source, readonly { readonly re: RegExp; readonly why: string }[]>> = {
  sqlite: [],
  duckdb: [
    { re: /^\s*PRAGMA\b/i, why: 'DuckDB PRAGMA' },
    { re: /^\s*(SET|RESET)\s+(threads|max_execution_time|debug_force_external|ieee_floating_point_ops)\b/i, why: 'DuckDB execution setting' },
    { re: /^\s*EXPLAIN\b/i, why: 'DuckDB plan text' },
  ],
  datafusion: [
    { re: /^\s*(SET|RESET)\s+datafusion\./i, why: 'DataFusion setting' },
    { re: /^\s*EXPLAIN\b/i, why: 'DataFusion plan text' },
  ],
  eddy: [],
};

/** Why a statement is engine-specific for this source (counted as unsupported), or undefined. */
export function engineSpecific(sql: string, source: Source): string | undefined {
  const text = stripLeadingComments(sql);
  return ENGINE_SPECIFIC[source].find((p) => p.re.test(text))?.why;
}

function stripLeadingComments(sql: string): string {
  let s = sql;
  for (;;) {
    const t = s.replace(/^\s*--[^\n]*\n?/, '');
    if (t === s) return s;
    s = t;
  }
}

/** Resolves a path written in a test file: relative to the file's folder, else to the nearest ancestor where it exists. */
export function resolveTestPath(written: string, fileDir: string): string {
  if (written.startsWith('/')) return written;
  for (let d = fileDir; ; d = dirname(d)) {
    const p = resolve(d, written);
    if (existsSync(p)) return p;
    if (dirname(d) === d) return resolve(fileDir, written);
  }
}

const EXTERNAL_TABLE = /^\s*CREATE\s+(OR\s+REPLACE\s+)?(UNBOUNDED\s+)?EXTERNAL\s+TABLE\s+(IF\s+NOT\s+EXISTS\s+)?("[^"]+"|[\w.]+)\s*(\(([\s\S]*?)\))?\s*STORED\s+AS\s+CSV\b([\s\S]*?)\bLOCATION\s+'([^']*)'\s*(OPTIONS\s*\(([\s\S]*)\))?\s*;?\s*$/i;

/**
 * DataFusion's `CREATE EXTERNAL TABLE name [(cols)] STORED AS CSV LOCATION
 * 'path' [OPTIONS ('format.has_header' 'true')]` becomes `CREATE TABLE name
 * AS SELECT * FROM read_csv('<absolute path>', header = ...)`; declared
 * column names become column aliases. Other SQL is returned unchanged.
 */
export function shimExternalTable(sql: string, fileDir: string): string {
  const m = EXTERNAL_TABLE.exec(sql);
  if (!m) return sql;
  const name = m[4]!;
  const path = resolveTestPath(m[8]!, fileDir);
  const options = m[10] ?? '';
  const headerOpt = /'format\.has_header'\s+'(true|false)'/i.exec(options);
  const header = headerOpt ? headerOpt[1]!.toLowerCase() === 'true' : /WITH\s+HEADER\s+ROW/i.test(m[7] ?? '');
  const cols = m[6] ? splitTopLevel(m[6]).map((c) => c.trim().split(/\s+/)[0]!).filter((c) => c !== '' && !/^(primary|unique|constraint)$/i.test(c)) : [];
  const alias = cols.length > 0 ? ` AS t(${cols.join(', ')})` : '';
  const replace = m[1] ? 'OR REPLACE ' : '';
  const ifNot = m[3] ? 'IF NOT EXISTS ' : '';
  return `CREATE ${replace}TABLE ${ifNot}${name} AS SELECT * FROM read_csv('${path.replace(/'/g, "''")}', header = ${header})${alias}`;
}

const NULL_ORDER_PRAGMA = /^\s*PRAGMA\s+default_null_order\s*=\s*'([A-Za-z_ ]+)'\s*;?\s*$/i;

/**
 * DuckDB's `PRAGMA default_null_order='NULLS LAST'` is its
 * `SET default_null_order = 'nulls_last'`: rewritten to the SET eddy has
 * (DuckDB also accepts the spelling with a space; eddy the underscore one).
 */
export function shimNullOrderPragma(sql: string): string {
  const m = NULL_ORDER_PRAGMA.exec(sql);
  return m ? `SET default_null_order = '${m[1]!.trim().toLowerCase().replace(/\s+/g, '_')}'` : sql;
}

/** The SQL a record runs as: the source's shims applied. */
export function shimSql(sql: string, source: Source, fileDir: string): string {
  if (source === 'datafusion') return shimExternalTable(sql, fileDir);
  if (source === 'duckdb') return shimNullOrderPragma(sql);
  return sql;
}

/** Splits on commas outside parentheses. */
function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) { out.push(cur); cur = ''; } else cur += ch;
  }
  out.push(cur);
  return out;
}

/**
 * True if the query ends with an ORDER BY at parenthesis depth 0 (outside
 * string literals, quoted identifiers and comments): its row order is defined.
 */
export function hasTopLevelOrderBy(sql: string): boolean {
  let depth = 0;
  let found = false;
  const n = sql.length;
  for (let i = 0; i < n; i++) {
    const ch = sql[i]!;
    if (ch === "'" || ch === '"') {
      const close = sql.indexOf(ch, i + 1);
      i = close < 0 ? n : close;
      continue;
    }
    if (ch === '-' && sql[i + 1] === '-') {
      const nl = sql.indexOf('\n', i);
      i = nl < 0 ? n : nl;
      continue;
    }
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (depth === 0 && (ch === 'o' || ch === 'O') && (i === 0 || !/\w/.test(sql[i - 1]!))) {
      if (/^order\s+by\b/i.test(sql.slice(i, i + 40))) found = true;
    }
  }
  return found;
}
