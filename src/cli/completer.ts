/**
 * Tab completion for the REPL, context-free: the word under the cursor is
 * completed from SQL keywords and functions, table names (and
 * `information_schema`, then its views after the dot) and column names;
 * a dot command name after `.`; a file path after `.read` and `.open`.
 */
import { readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { FUNCTIONS } from '../relnode/functions.js';
import { INFORMATION_SCHEMA, INFORMATION_SCHEMA_VIEWS } from '../sql/information-schema.js';

/** SQL keywords offered by completion. */
export const SQL_KEYWORDS: readonly string[] = [
  'ALL', 'AND', 'ANALYZE', 'AS', 'ASC', 'BETWEEN', 'BY', 'CACHE', 'CACHES', 'CASE', 'CAST', 'CLEAR', 'CREATE', 'CROSS',
  'COPY', 'DATE', 'DELETE', 'DESC', 'DESCRIBE', 'DISTINCT', 'DROP', 'ELSE', 'END', 'EXCEPT', 'EXISTS', 'EXPLAIN', 'FALSE',
  'FIRST', 'FROM', 'FULL', 'GROUP', 'HAVING', 'IF', 'IN', 'INNER', 'INSERT', 'INTERSECT', 'INTERVAL', 'INTO', 'IS',
  'JOIN', 'LAST', 'LAZY', 'LEFT', 'LIKE', 'LIMIT', 'NATURAL', 'NOT', 'NULL', 'NULLS', 'OFFSET', 'ON', 'OPTIONS', 'OR',
  'ORDER', 'OUTER', 'RECURSIVE', 'REPLACE', 'RIGHT', 'SELECT', 'SET', 'SHOW', 'TABLE', 'TABLES', 'THEN', 'TIMESTAMP',
  'SUMMARIZE', 'TO', 'TRUE', 'UNCACHE', 'UNION', 'UPDATE', 'USING', 'VALUES', 'VIEW', 'WHEN', 'WHERE', 'WITH',
  'PIVOT', 'UNPIVOT', 'BIGINT', 'BOOLEAN', 'DOUBLE', 'INTEGER', 'VARCHAR',
];

/** Function names offered by completion (scalar functions of the engine, aggregates, table functions). */
export const SQL_FUNCTIONS: readonly string[] = [...new Set([
  ...[...FUNCTIONS.values()].map((f) => f.display).filter((d) => /^[a-z_]+$/.test(d)),
  'count', 'sum', 'avg', 'min', 'max', 'stddev', 'extract', 'substr', 'read_csv', 'read_parquet', 'read_arrow', 'read_json',
])].sort();

/** What completion draws from; tables and columns are read at each Tab press. */
export interface CompletionSource {
  readonly dotCommands: readonly string[];
  tables(): readonly string[];
  columns(): readonly string[];
}

/** Keeps what the user typed and appends the rest of `word` (so the case of the typed prefix is kept). */
function extend(typed: string, word: string): string {
  return typed + word.slice(typed.length);
}

/** Completions for the text left of the cursor, in readline's form: [candidates, the text they replace]. */
export function completeLine(line: string, source: CompletionSource): [string[], string] {
  const dot = /^\s*(\.\w*)$/.exec(line);
  if (dot) return [source.dotCommands.filter((c) => c.startsWith(dot[1]!)).map((c) => `${c} `), dot[1]!];
  const file = /^\s*\.(?:read|open)\s+(\S*)$/.exec(line);
  if (file) return [completePath(file[1]!), file[1]!];
  if (/^\s*\./.test(line)) return [[], ''];
  // After `information_schema.`, only its views make sense.
  const view = /\binformation_schema\.([A-Za-z_]*)$/i.exec(line);
  if (view) {
    const t = view[1]!;
    return [INFORMATION_SCHEMA_VIEWS.filter((v) => v.startsWith(t.toLowerCase()) && v !== t.toLowerCase()).map((v) => extend(t, v)), t];
  }
  const m = /[A-Za-z_][A-Za-z0-9_]*$/.exec(line);
  if (!m) return [[], ''];
  const typed = m[0];
  const lower = typed.toLowerCase();
  const upperCase = typed !== lower;
  const out = new Set<string>();
  for (const k of SQL_KEYWORDS) if (k.toLowerCase().startsWith(lower)) out.add(extend(typed, upperCase ? k : k.toLowerCase()));
  for (const f of SQL_FUNCTIONS) if (f.startsWith(lower)) out.add(extend(typed, upperCase && typed === typed.toUpperCase() ? f.toUpperCase() : f));
  for (const name of [...source.tables(), INFORMATION_SCHEMA, ...source.columns()]) if (name.toLowerCase().startsWith(lower)) out.add(extend(typed, name));
  out.delete(typed);
  return [[...out].sort(), typed];
}

/** File names starting with `prefix` (directories end in '/'). */
export function completePath(prefix: string): string[] {
  const expanded = prefix.startsWith('~/') ? join(homedir(), prefix.slice(2)) : prefix;
  const slash = expanded.lastIndexOf('/');
  const dir = slash < 0 ? '.' : expanded.slice(0, slash + 1);
  const base = expanded.slice(slash + 1);
  const shownDir = prefix.slice(0, prefix.length - base.length);
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.name.startsWith(base) && (base.startsWith('.') || !e.name.startsWith('.')))
      .map((e) => shownDir + e.name + (e.isDirectory() ? '/' : ''))
      .sort();
  } catch {
    return [];
  }
}
