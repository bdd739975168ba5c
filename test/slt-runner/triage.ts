/**
 * Triage of a run's unexpected failures (summary.json): groups them by cause with the
 * rules below, follows cascades (a record failing because an earlier
 * CREATE/INSERT of a table it reads failed), and prints allow-list rows
 * (`file, line, category, reason`) for review. Failures no rule explains are
 * printed as `UNTRIAGED` and must be looked at by hand.
 *
 *   tsx test/slt-runner/triage.ts test/slt/results/summary.json [--tsv] [--counts]
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AllowCategory } from './allowlist.js';
import type { FailureDetail } from './summary.js';

/** A rule: when the failure's file, reason and SQL match, it is explained by `why`. */
export interface TriageRule {
  readonly file?: RegExp;
  readonly reason?: RegExp;
  readonly sql?: RegExp;
  readonly lines?: readonly number[];
  /** Any other condition on the failure. */
  readonly test?: (f: { readonly file: string; readonly line: number; readonly reason: string; readonly sql?: string }) => boolean;
  readonly category: AllowCategory;
  /** The explanation; `$1` is replaced by the reason's first capture group. */
  readonly why: string;
}

/** Known causes, most specific first. */
export const RULES: readonly TriageRule[] = [
  // ---- features eddy does not implement (yet)
  { reason: /WITH RECURSIVE is not supported/, category: 'feature', why: 'WITH RECURSIVE is not implemented yet (arrives with the iteration work)' },
  { reason: /window functions/, category: 'feature', why: 'window functions (OVER) are not implemented' },
  { reason: /a correlated subquery with aggregates supports only equality|correlated subquery needs its outer references in equality|correlated reference to outer column .* is only supported in the WHERE/, category: 'feature', why: 'correlated subqueries whose outer references are not equality conditions are not decorrelated' },
  { reason: /unknown setting "default_null_order"/, category: 'feature', why: 'SET default_null_order (DuckDB setting) is not implemented' },
  { reason: /unknown setting "(\w+)"/, category: 'feature', why: 'setting $1 is not implemented' },
  { reason: /unknown type "(\w+)"/, category: 'feature', why: 'type $1 is not supported' },
  { reason: /unexpected character "[[{]"/, category: 'feature', why: 'LIST / STRUCT literals are not supported' },
  { reason: /unexpected "'[0-9a-fA-F]*'"/, sql: /\b[xX]'/, category: 'feature', why: "BLOB literals (x'..') are not supported" },
  { reason: /unknown function "(\w+)"/, category: 'feature', why: 'function $1 is not implemented' },
  { reason: /(range|generate_series) takes one file path/, category: 'feature', why: 'table function $1() is not implemented' },
  { sql: /\bLATERAL\b/i, category: 'feature', why: 'LATERAL joins are not supported' },
  { reason: /unexpected "(SEMI|ANTI)"/, category: 'feature', why: 'LEFT SEMI / ANTI JOIN syntax is not supported' },
  { reason: /unexpected "COPY"/, category: 'feature', why: 'COPY is not supported' },
  { reason: /unexpected "SEQUENCE"/, category: 'feature', why: 'sequences are not supported' },
  { reason: /unexpected "(UPDATE|DELETE)"|expected TABLE, INDEX or VIEW|unexpected "TRIGGER"|unexpected "REINDEX"/, sql: /\b(UPDATE|DELETE|TRIGGER|REINDEX)\b/i, category: 'feature', why: 'UPDATE / DELETE / triggers / REINDEX are not supported' },
  { reason: /unexpected "OR"; expected INTO|unexpected "REPLACE"/, category: 'feature', why: 'INSERT OR REPLACE / REPLACE INTO are not supported' },
  { sql: /RETURNING/i, category: 'feature', why: 'DML inside WITH / RETURNING is not supported' },
  { reason: /ORDER BY inside \w+\(\.\.\.\) is not supported/, category: 'feature', why: 'ordered aggregates (agg(x ORDER BY y)) are not supported' },
  { reason: /unsupported INTERVAL unit/, category: 'feature', why: 'an INTERVAL unit eddy does not know' },
  { reason: /UNSIGNED/, category: 'feature', why: 'unsigned integer types are not supported' },
  { reason: /could not cast DOUBLE value -?1\.70\d*e\+38 to BIGINT/, category: 'feature', why: 'HUGEINT (128-bit) values are not supported (HUGEINT is read as BIGINT)' },
  { sql: /\b(sum|avg|min|max|count|string_agg)\s*\([^()]*\bORDER\s+BY\b/i, test: (f) => !f.reason.startsWith('unexpected error'), category: 'bug', why: 'eddy bug: agg(x ORDER BY y) is accepted and its ORDER BY ignored (issue #7 item 6)' },
  { sql: /\b(sum|avg|min|max|count|string_agg)\s*\([^()]*\bORDER\s+BY\b/i, category: 'feature', why: 'ordered aggregates (agg(x ORDER BY y)) are not supported' },
  { reason: /unexpected "\/"; expected an expression/, sql: /\/\//, category: 'feature', why: 'the // integer division operator is not supported' },
  { reason: /column "(\w+)" not found/, test: (f) => { const c = /column "(\w+)" not found/.exec(f.reason)![1]!; return new RegExp(`\\bAS\\s+${c}\\b`, 'i').test(f.sql ?? '') && !/\bUNION\b/i.test(f.sql ?? ''); }, category: 'feature', why: 'a select-list alias used in the same SELECT list or in WHERE (DuckDB lateral aliases) is not supported' },
  { reason: /column "rowid" not found/, category: 'feature', why: 'the rowid pseudo-column (DuckDB has one) is not implemented' },
  { sql: /unnamed_subquery|\(\s*FROM\s/i, category: 'dialect', why: 'DuckDB-only syntax: FROM-first queries and the implicit "unnamed_subquery" alias' },
  // ---- eddy bugs (each with a minimal repro in the report): none known today
  // ---- deliberate differences from the file's engine
  { file: /join\.slt\.part$/, lines: [1208, 1211, 1223, 1226], category: 'dialect', why: 'quoted identifiers are case-insensitive (as in DuckDB), so "T1" and t1 name one table; DataFusion keeps them apart' },
  { file: /cte\.slt$/, lines: [1174], category: 'dialect', why: 'END is a reserved word (a bare column named end needs quotes, as in DuckDB and PostgreSQL); the query also needs WITH RECURSIVE' },
  { reason: /CASE WHEN condition is (INTEGER|BIGINT)|WHERE condition must be BOOLEAN, got|(AND|OR|NOT) expects BOOLEAN, got (INTEGER|BIGINT)/, category: 'dialect', why: 'no implicit INTEGER to BOOLEAN conversion (eddy requires a comparison)' },
  { reason: /cannot compare (VARCHAR and (INTEGER|BIGINT|DOUBLE)|(INTEGER|BIGINT|DOUBLE) and VARCHAR)|is (INTEGER|BIGINT|DOUBLE) on one side and VARCHAR|expects numeric arguments, got .*VARCHAR|sum expects a numeric argument, got BOOLEAN/, category: 'dialect', why: 'no implicit conversion between text and numbers or booleans (eddy asks for a CAST)' },
  { reason: /must appear in the GROUP BY clause/, file: /^sqlite\//, category: 'dialect', why: 'bare (non-grouped) columns in an aggregate query are rejected, as in PostgreSQL and DuckDB (the record is skipif postgresql)' },
  { reason: /IN takes 2 to any number of arguments, got 1/, category: 'dialect', why: 'an empty IN list "x IN ()" is SQLite-only syntax' },
  { reason: /expected an error, but the statement succeeded/, sql: /^\s*DROP INDEX/i, category: 'dialect', why: 'indexes are accepted as no-ops, so dropping an unknown index is not an error' },
  { sql: /\bUNION\b[\s\S]*\bORDER\s+BY\b/i, reason: /column "[\w.]+" not found|no table or alias|expected an error/, category: 'dialect', why: 'ORDER BY over a UNION sees only the output columns, named by the first branch (DuckDB also binds other branches\' names, qualifiers and expressions)' },
  { reason: /expected an error \(ORDER BY non-integer literal has no effect\)/, category: 'dialect', why: 'ORDER BY a constant string is accepted (it has no effect); DuckDB rejects it by default' },
  { reason: /expected an error, but the query succeeded/, sql: /\b(LEFT|RIGHT|FULL)\s+JOIN\s+\w+\s*$/i, category: 'dialect', why: 'an outer join without ON or USING is accepted as ON true (as SQLite does); DataFusion rejects it' },
  { reason: /unexpected "from"; expected an expression or "\*"/, sql: /,\s*from\b/i, category: 'feature', why: 'a trailing comma in the select list is not supported (DuckDB and DataFusion accept it)' },
  { reason: /expected an error, but the query succeeded/, sql: /with numbers\(a\) as \(select 1, 2, 3\)/i, category: 'dialect', why: 'a CTE column list shorter than its query renames the first columns (DuckDB semantics; DataFusion rejects it)' },
  { sql: /==|\(SELECT \* FROM t1 CROSS JOIN t2\)\s+WHERE\s+t1\.a/, file: /^datafusion\//, category: 'dialect', why: 'DataFusion-only: == and qualifiers of tables inside an unaliased derived table' },
  { sql: /cte_schema_reread/, category: 'feature', why: 'depends on COPY ... TO (not supported), which writes the file this table reads' },
  { reason: /table "orders" not found/, file: /^datafusion\//, category: 'dialect', why: "the table comes from DataFusion's test harness (strict schema provider)" },
];

interface Failure extends FailureDetail {
  readonly file: string;
}

/** The first rule matching a failure, with `$1` filled in. */
export function classify(f: Failure): { category: AllowCategory; why: string } | undefined {
  for (const r of RULES) {
    if (r.file && !r.file.test(f.file)) continue;
    if (r.lines && !r.lines.includes(f.line)) continue;
    let m: RegExpExecArray | null = null;
    if (r.reason) {
      m = r.reason.exec(f.reason);
      if (!m) continue;
    }
    if (r.sql && !r.sql.test(f.sql ?? '')) continue;
    if (r.test && !r.test(f)) continue;
    return { category: r.category, why: r.why.replace('$1', m?.[1] ?? '') };
  }
  return undefined;
}

/** Names a statement creates or changes (CREATE TABLE/VIEW x, INSERT INTO x, UPDATE x, DELETE FROM x, REPLACE INTO x). */
function targetsOf(sql: string): string[] {
  const re = /\b(?:CREATE\s+(?:OR\s+REPLACE\s+)?(?:TEMP\w*\s+)?(?:TABLE|VIEW)\s+(?:IF\s+NOT\s+EXISTS\s+)?|INSERT\s+(?:OR\s+\w+\s+)?INTO\s+|REPLACE\s+INTO\s+|UPDATE\s+|DELETE\s+FROM\s+)("?[\w.]+"?)/gi;
  return [...sql.matchAll(re)].map((m) => m[1]!.replace(/"/g, '').toLowerCase());
}

/** Classifies every failure of a file, following cascades from failed CREATE/INSERT statements. */
export function triageFile(file: string, failures: readonly FailureDetail[]): { line: number; category: AllowCategory | 'UNTRIAGED'; why: string; reason: string; sql: string }[] {
  const broken = new Map<string, { line: number; why: string; category: AllowCategory | 'UNTRIAGED' }>();
  const out: { line: number; category: AllowCategory | 'UNTRIAGED'; why: string; reason: string; sql: string }[] = [];
  // A failed `SET default_null_order='nulls_first'`: later results differing only in NULL placement follow from it.
  let nullOrder: { line: number; why: string } | undefined;
  for (const f of [...failures].sort((a, b) => a.line - b.line)) {
    const sql = f.sql ?? '';
    let c: { category: AllowCategory | 'UNTRIAGED'; why: string } | undefined = classify({ ...f, file });
    if (c && /default_null_order/.test(sql)) nullOrder = { line: f.line, why: c.why };
    if (!c && nullOrder && /^the same rows in another order/.test(f.reason)) {
      c = { category: 'feature', why: `NULLs sort first after SET default_null_order at line ${nullOrder.line} (${nullOrder.why})` };
    }
    if (!c) {
      const words = new Set(sql.toLowerCase().match(/[a-z_][\w]*/g) ?? []);
      const dep = [...broken].find(([name]) => words.has(name));
      if (dep) c = { category: dep[1].category, why: `depends on the failed statement at line ${dep[1].line} (${dep[1].why.replace(/^depends on the failed statement at line \d+ \((.*)\)$/, '$1')})` };
    }
    const final = c ?? { category: 'UNTRIAGED' as const, why: f.reason };
    for (const target of targetsOf(sql)) broken.set(target, { line: f.line, why: final.why, category: final.category });
    out.push({ line: f.line, ...final, reason: f.reason, sql });
  }
  return out;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const tsv = args.includes('--tsv');
  const files = args.filter((a) => !a.startsWith('--'));
  const counts = new Map<string, number>();
  for (const path of files) {
    const json = JSON.parse(readFileSync(resolve(path), 'utf8')) as { files: { file: string; unexpected: FailureDetail[] }[] };
    for (const f of json.files) {
      for (const t of triageFile(f.file, f.unexpected)) {
        const key = `${t.category}: ${t.why.replace(/line \d+ /, 'line N ')}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
        if (tsv) console.log([f.file, t.line, t.category, t.why].join('\t'));
        else if (t.category === 'UNTRIAGED') console.log(`${f.file}:${t.line}: ${t.reason}\n    ${t.sql.replace(/\s+/g, ' ').slice(0, 300)}`);
      }
    }
  }
  if (args.includes('--counts')) for (const [k, n] of [...counts].sort((a, b) => b[1] - a[1])) console.error(`${String(n).padStart(6)}  ${k}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e: unknown) => { console.error(e); process.exit(2); });
}
