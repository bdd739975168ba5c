/**
 * Computes the expected results of eddy's own .slt files with DuckDB (the
 * correctness oracle) and reports where a file disagrees; `--write` rewrites
 * the expected blocks and type letters in place. Records marked
 * `skipif duckdb` (eddy-only features: EXPLAIN, SHOW TABLES, error texts,
 * read_arrow, ...) keep their hand-written expectations. Every generated
 * expectation still needs a human review.
 *
 *   tsx test/slt-runner/expect-with-duckdb.ts test/slt/joins.slt [more files] [--write]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance, DuckDBTypeId, type DuckDBConnection, type DuckDBType } from '@duckdb/node-api';
import { parseSlt, type QueryRecord } from './records.js';
import { byCodeUnits } from './compare.js';
import { skippedBy } from './run-file.js';

/** The type letter DuckDB's column type calls for (I integer, R real, T anything else). */
export function letterOf(t: DuckDBType): string {
  switch (t.typeId) {
    case DuckDBTypeId.TINYINT: case DuckDBTypeId.SMALLINT: case DuckDBTypeId.INTEGER: case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.HUGEINT: case DuckDBTypeId.UTINYINT: case DuckDBTypeId.USMALLINT: case DuckDBTypeId.UINTEGER:
    case DuckDBTypeId.UBIGINT: case DuckDBTypeId.UHUGEINT:
      return 'I';
    case DuckDBTypeId.FLOAT: case DuckDBTypeId.DOUBLE: case DuckDBTypeId.DECIMAL:
      return 'R';
    default:
      return 'T';
  }
}

/** Renders one DuckDB value as the runner's DuckDB-style comparison expects it. */
function render(js: unknown, raw: { toString(): string } | null, t: DuckDBType): string {
  if (js === null || js === undefined) return 'NULL';
  switch (t.typeId) {
    case DuckDBTypeId.DATE: case DuckDBTypeId.TIMESTAMP: case DuckDBTypeId.TIMESTAMP_MS:
      return String(raw);
    case DuckDBTypeId.DECIMAL: case DuckDBTypeId.DOUBLE: case DuckDBTypeId.FLOAT:
      return String(Number(js));
    case DuckDBTypeId.VARCHAR:
      return js === '' ? '(empty)' : String(js);
    default:
      return String(js);
  }
}

/** DuckDB's answer to one query record: type letters and the expected block. */
async function answer(conn: DuckDBConnection, q: QueryRecord): Promise<{ types: string; lines: string[] }> {
  const reader = await conn.runAndReadAll(q.sql);
  const types = reader.columnTypes();
  const js = reader.getRowsJS();
  const raw = reader.getRows();
  const rows = js.map((r, i) => r.map((v, c) => render(v, raw[i]![c] as { toString(): string } | null, types[c]!)));
  let lines: string[];
  if (q.sort === 'valuesort') lines = rows.flat().sort(byCodeUnits);
  else {
    const joined = rows.map((r) => r.join('\t'));
    lines = q.sort === 'rowsort' ? joined.sort(byCodeUnits) : joined;
  }
  return { types: types.map(letterOf).join(''), lines };
}

/** Checks (and with `write`, rewrites) one file; returns the number of disagreements. */
export async function expectFile(path: string, write: boolean): Promise<number> {
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  const inst = await DuckDBInstance.create(':memory:');
  const conn = await inst.connect();
  // eddy's semantics: x / 0 is NULL (DuckDB's IEEE mode would give inf/nan).
  await conn.run('SET ieee_floating_point_ops = false');
  let problems = 0;
  const edits: { header: number; start: number; end: number; header2: string; block: string[] }[] = [];
  for (const rec of parseSlt(text)) {
    if (rec.kind !== 'statement' && rec.kind !== 'query') continue;
    if (skippedBy(rec.conditions, ['duckdb'])) continue;
    if (rec.kind === 'statement') {
      try {
        await conn.run(rec.sql);
        if (rec.expect === 'error') { problems++; console.log(`${path}:${rec.line}: DuckDB runs this "statement error" without an error`); }
      } catch (e) {
        if (rec.expect !== 'error') { problems++; console.log(`${path}:${rec.line}: DuckDB fails: ${(e as Error).message.split('\n')[0]}`); }
      }
      continue;
    }
    if (rec.error !== undefined) continue;
    let got: { types: string; lines: string[] };
    try {
      got = await answer(conn, rec);
    } catch (e) {
      problems++;
      console.log(`${path}:${rec.line}: DuckDB fails: ${(e as Error).message.split('\n')[0]}`);
      continue;
    }
    const headerIdx = rec.line - 1;
    let blockEnd = headerIdx + 1;
    while (blockEnd < lines.length && lines[blockEnd]!.trim() !== '') blockEnd++;
    const sepAt = lines.slice(headerIdx + 1, blockEnd).findIndex((l) => l.trim() === '----');
    const hasSep = sepAt >= 0;
    const start = hasSep ? headerIdx + 1 + sepAt + 1 : blockEnd;
    const end = blockEnd;
    const current = hasSep ? lines.slice(start, end) : [];
    const sameTypes = got.types === rec.types;
    const sameLines = hasSep && current.length === got.lines.length && current.every((l, i) => l === got.lines[i]);
    if (!sameTypes || !sameLines) {
      problems++;
      console.log(`${path}:${rec.line}: ${sameTypes ? '' : `types ${rec.types} -> ${got.types}; `}${rec.sql.replace(/\s+/g, ' ').slice(0, 160)}`);
      if (!sameLines) console.log(`  file:   ${current.join(' | ').slice(0, 300)}\n  duckdb: ${got.lines.join(' | ').slice(0, 300)}`);
      const header2 = lines[headerIdx]!.replace(/^(\s*query\s+)(\S+)/, `$1${got.types}`);
      edits.push({ header: headerIdx, start, end, header2, block: hasSep ? got.lines : ['----', ...got.lines] });
    }
  }
  conn.closeSync();
  inst.closeSync();
  if (write && edits.length > 0) {
    for (const e of edits.reverse()) {
      lines[e.header] = e.header2;
      lines.splice(e.start, e.end - e.start, ...e.block);
    }
    writeFileSync(path, lines.join('\n'));
    console.log(`${path}: rewrote ${edits.length} records`);
  }
  return problems;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const write = args.includes('--write');
  let problems = 0;
  for (const f of args.filter((a) => !a.startsWith('--'))) problems += await expectFile(resolve(f), write);
  console.log(problems === 0 ? 'all expectations agree with DuckDB' : `${problems} disagreement(s) with DuckDB`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e: unknown) => { console.error(e); process.exit(2); });
}
