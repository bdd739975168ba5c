/**
 * The 22 TPC-H queries of the suite: SQL text read from bench/tpch/qNN.sql.
 * Each file starts with comment lines; the one starting `-- order:` lists the
 * ORDER BY columns whose sequence the verification checks (empty: a single
 * row or no order). The SQL is run verbatim by every SQL engine.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One TPC-H query of the suite. */
export interface SuiteQuery {
  /** `q1`..`q22`. */
  readonly id: string;
  readonly n: number;
  /** The first comment line (query name and validation parameters). */
  readonly title: string;
  readonly sql: string;
  /** ORDER BY columns (without ASC/DESC) whose row sequence must match. */
  readonly orderKeys: readonly string[];
}

const DIR = fileURLToPath(new URL('../tpch/', import.meta.url));

/** Parses one query file's text. */
export function parseQueryFile(n: number, text: string): SuiteQuery {
  const lines = text.split('\n');
  const comments = lines.filter((l) => l.startsWith('--'));
  const order = comments.find((l) => /^--\s*order:/.test(l));
  if (order === undefined) throw new Error(`bench/tpch/q${String(n).padStart(2, '0')}.sql has no "-- order:" line`);
  const orderKeys = order.replace(/^--\s*order:/, '').split(',')
    .map((s) => s.trim().replace(/\s+(asc|desc)$/i, '')).filter(Boolean);
  const sql = lines.filter((l) => !l.startsWith('--')).join('\n').trim();
  const title = (comments[0] ?? '').replace(/^--\s*/, '');
  return { id: `q${n}`, n, title, sql, orderKeys };
}

/** The queries with these ids (`q1`..`q22`), in number order. */
export function loadQueries(ids: readonly string[]): SuiteQuery[] {
  const out: SuiteQuery[] = [];
  for (let n = 1; n <= 22; n++) {
    if (!ids.includes(`q${n}`)) continue;
    out.push(parseQueryFile(n, readFileSync(`${DIR}q${String(n).padStart(2, '0')}.sql`, 'utf8')));
  }
  return out;
}
