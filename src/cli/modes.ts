/**
 * Output modes of the shell (`.mode`, `--format`): an aligned table, CSV,
 * JSON or a Markdown table. CSV, JSON and Markdown print every row; they are
 * produced in chunks so huge results stream out and can be interrupted.
 * They write doubles exactly (the shortest text that reads back as the same
 * value, double-text.ts); only the table view shortens them.
 */
import type { DataType, Float, Table as ArrowTable } from 'apache-arrow';
import { Precision, Type } from 'apache-arrow';
import { doubleJson } from './double-text.js';
import { cellFormatter, columnTypeIds, formatTable, valueType, type FormatOptions } from './format.js';
import { uniqueRowKeys } from '../api/result.js';

/** The output modes. */
export const OUTPUT_MODES = ['table', 'csv', 'json', 'markdown'] as const;

/** An output mode. */
export type OutputMode = (typeof OUTPUT_MODES)[number];

/** True if `s` names an output mode. */
export function isOutputMode(s: string): s is OutputMode {
  return (OUTPUT_MODES as readonly string[]).includes(s);
}

/** Rows per chunk of CSV / JSON / Markdown output. */
const CHUNK_ROWS = 2000;

/** Text of a result in a mode, as chunks that end in a newline. */
export function* renderResult(t: ArrowTable, mode: OutputMode, options: FormatOptions = {}): Generator<string> {
  switch (mode) {
    case 'table': yield `${formatTable(t, options)}\n`; return;
    case 'csv': yield* renderCsv(t); return;
    case 'json': yield* renderJson(t); return;
    case 'markdown': yield* renderMarkdown(t); return;
  }
}

/** Renders the rows `CHUNK_ROWS` at a time, one string per chunk. */
function* chunks(t: ArrowTable, renderRow: (r: number) => string): Generator<string> {
  for (let start = 0; start < t.numRows; start += CHUNK_ROWS) {
    const end = Math.min(t.numRows, start + CHUNK_ROWS);
    let s = '';
    for (let r = start; r < end; r++) s += renderRow(r);
    yield s;
  }
}

function cellReader(t: ArrowTable): (r: number, c: number) => unknown {
  const vectors = t.schema.fields.map((_, c) => t.getChildAt(c)!);
  return (r, c) => vectors[c]!.get(r);
}

/** A CSV field: quoted when it holds a comma, quote, newline or edge spaces. NULL is an empty field. */
export function csvField(s: string | null): string {
  if (s === null) return '';
  return /[",\n\r]|^\s|\s$/.test(s) || s === '' ? `"${s.replace(/"/g, '""')}"` : s;
}

/** RFC 4180 CSV with a header line; NULL is an empty field, an empty string is `""`, doubles exact. */
export function* renderCsv(t: ArrowTable): Generator<string> {
  const texts = t.schema.fields.map((f) => cellFormatter(f.type, 'exact'));
  const get = cellReader(t);
  yield `${t.schema.fields.map((f) => csvField(f.name)).join(',')}\n`;
  yield* chunks(t, (r) => `${texts.map((text, c) => {
    const v = get(r, c);
    return csvField(v === null || v === undefined ? null : text(v));
  }).join(',')}\n`);
}

/**
 * How the values of a column print as JSON: BIGINT digits exactly, doubles
 * exact (NaN and the infinities as strings), dates and timestamps as
 * strings, NULL as null.
 */
export function jsonFormatter(type: DataType): (v: unknown) => string {
  const t = valueType(type);
  const text = cellFormatter(t, 'exact');
  const single = t.typeId === Type.Float && (t as Float).precision !== Precision.DOUBLE;
  return (v) => {
    if (v === null || v === undefined) return 'null';
    if (t.typeId === Type.Date || t.typeId === Type.Timestamp) return JSON.stringify(text(v));
    if (typeof v === 'bigint') return v.toString();
    if (typeof v === 'number') return t.typeId === Type.Float ? doubleJson(v, single) : Number.isFinite(v) ? String(v) : JSON.stringify(String(v));
    if (typeof v === 'boolean') return String(v);
    return JSON.stringify(String(v));
  };
}

/** A JSON array of row objects, one row per line; columns sharing a name get keys `name`, `name_1`, ... (uniqueRowKeys in src/api/result.ts, the rule toArray() follows). */
export function* renderJson(t: ArrowTable): Generator<string> {
  const values = t.schema.fields.map((f) => jsonFormatter(f.type));
  const keys = uniqueRowKeys(t.schema.fields.map((f) => f.name)).map((k) => JSON.stringify(k));
  const get = cellReader(t);
  if (t.numRows === 0) { yield '[]\n'; return; }
  const last = t.numRows - 1;
  yield* chunks(t, (r) => `${r === 0 ? '[' : ''}{${keys.map((k, c) => `${k}:${values[c]!(get(r, c))}`).join(',')}}${r === last ? ']' : ','}\n`);
}

function markdownCell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>');
}

/** A GitHub-flavoured Markdown table; numeric columns are right-aligned, doubles exact (as in CSV). */
export function* renderMarkdown(t: ArrowTable): Generator<string> {
  const ids = columnTypeIds(t);
  const texts = t.schema.fields.map((f) => cellFormatter(f.type, 'exact'));
  const get = cellReader(t);
  const numeric = ids.map((id) => id === Type.Int || id === Type.Float || id === Type.Decimal);
  yield `| ${t.schema.fields.map((f) => markdownCell(f.name)).join(' | ')} |\n|${numeric.map((n) => (n ? '---:' : '---')).join('|')}|\n`;
  yield* chunks(t, (r) => `| ${texts.map((text, c) => markdownCell(text(get(r, c)))).join(' | ')} |\n`);
}
