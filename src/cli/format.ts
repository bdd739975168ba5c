/**
 * Renders query results as aligned text tables with the column types in the
 * header (numeric columns right-aligned, header included): long results keep
 * their first and last rows, wide ones their first and last columns (to fit
 * the terminal), long cells are cut with '…', NULL shows as NULL and
 * multi-line cells span several lines. Doubles are shortened to about 10
 * significant digits, never to a different magnitude (double-text.ts).
 */
import type { Table as ArrowTable, Float } from 'apache-arrow';
import { DataType, Precision, Type } from 'apache-arrow';
import { formatDate, formatTimestamp } from '../exec/kernels/datetime.js';
import { fromArrowType } from '../relnode/types.js';
import { doubleText, type DoubleStyle } from './double-text.js';
import { cutToWidth, displayWidth, padEnd, padStart } from './text-width.js';

/** Options of `formatTable`. */
export interface FormatOptions {
  /** Rows shown before truncating (the first half and the last half). Default 40. */
  readonly maxRows?: number;
  /** Widest cell (in terminal columns) before it is cut with '…'. Default 40. */
  readonly maxWidth?: number;
  /** Width of the terminal: middle columns are left out to fit. Default: no limit. */
  readonly maxTotalWidth?: number;
}

/** The value type of a column's Arrow type (dictionaries resolved). */
export function valueType(t: DataType): DataType {
  return DataType.isDictionary(t) ? valueType(t.dictionary) : t;
}

/** ms of 0001-01-01 and of 10000-01-01: outside, toISOString writes `+275760-…` / `-000001-…`. */
const FOUR_DIGIT_YEARS: readonly [number, number] = [-62_135_596_800_000, 253_402_300_800_000];
const fourDigitYear = (ms: number): boolean => ms >= FOUR_DIGIT_YEARS[0] && ms < FOUR_DIGIT_YEARS[1];

/** A DATE (ms since the epoch, as Arrow JS reads it) as `YYYY-MM-DD`; other years as CAST(... AS VARCHAR) writes them (`275760-09-13`, `0001-01-01 (BC)`). */
function dateText(ms: number): string {
  return fourDigitYear(ms) ? new Date(ms).toISOString().slice(0, 10) : formatDate(Math.floor(ms / 86_400_000));
}

/** A TIMESTAMP (ms since the epoch) as `YYYY-MM-DD hh:mm:ss[.fff]`, trailing zeros of the fraction dropped (as DuckDB writes it). */
function timestampText(ms: number): string {
  if (!fourDigitYear(ms)) return formatTimestamp(ms);
  const d = new Date(ms);
  return d.toISOString().replace('T', ' ').replace(/\.(\d*?)0*Z$/, (_, f: string) => (f === '' ? '' : `.${f}`));
}

/**
 * How the values of a column of Arrow type `type` print: NULL as `NULL`,
 * dates and timestamps as ISO text, BIGINT digits exactly, DOUBLE and FLOAT
 * in the given style (double-text.ts), everything else as `String(v)`.
 */
export function cellFormatter(type: DataType, style: DoubleStyle): (v: unknown) => string {
  const t = valueType(type);
  const text = ((): ((v: unknown) => string) => {
    switch (t.typeId) {
      case Type.Date: return (v) => dateText(Number(v));
      case Type.Timestamp: return (v) => timestampText(Number(v));
      case Type.Float: {
        const single = (t as Float).precision !== Precision.DOUBLE;
        return (v) => (typeof v === 'number' ? doubleText(v, style, single) : String(v));
      }
      default: return (v) => String(v);
    }
  })();
  return (v) => (v === null || v === undefined ? 'NULL' : text(v));
}

/** The Arrow type id of each column, with dictionaries resolved to their value type. */
export function columnTypeIds(t: ArrowTable): Type[] {
  return t.schema.fields.map((f) => valueType(f.type).typeId);
}

/** The lower-case SQL type name of each column (`integer`, `varchar`, ...). */
export function columnTypeNames(t: ArrowTable): string[] {
  return t.schema.fields.map((f) => (fromArrowType(f.type) ?? String(f.type)).toLowerCase());
}

/** Control characters other than newline are shown escaped so they cannot break the layout. */
function visible(s: string): string {
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u0009\u000b-\u001f\u007f]/.test(s) ? s.replace(/\t/g, '\\t').replace(/\r/g, '\\r').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '�') : s;
}

/** Which rows to show: all, or the first and last halves with -1 marking the gap. */
function pickRows(n: number, maxRows: number): number[] {
  if (n <= maxRows) return [...Array(n).keys()];
  const head = Math.ceil(maxRows / 2);
  const tail = Math.floor(maxRows / 2);
  return [...Array(head).keys(), -1, ...Array.from({ length: tail }, (_, i) => n - tail + i)];
}

/** Which columns fit in `maxTotal` terminal columns: from both ends inwards; -1 marks the gap. */
function pickColumns(widths: readonly number[], maxTotal: number | undefined): number[] {
  const all = widths.map((_, i) => i);
  const cost = (i: number): number => widths[i]! + 3;
  if (maxTotal === undefined || widths.length <= 1 || all.reduce((s, i) => s + cost(i), 1) <= maxTotal) return all;
  const left: number[] = [];
  const right: number[] = [];
  let used = 1 + 4; // the outer border and the '…' column
  let lo = 0;
  let hi = widths.length - 1;
  for (let fromLeft = true; lo <= hi; fromLeft = !fromLeft) {
    const i = fromLeft ? lo : hi;
    if (used + cost(i) > maxTotal && left.length + right.length > 0) break;
    used += cost(i);
    if (fromLeft) left.push(lo++);
    else right.unshift(hi--);
  }
  return lo > hi ? all : [...left, -1, ...right];
}

/**
 * The widest a cell may be: `maxWidth`, or more when the terminal width is
 * known and the table still fits in it with wider cells (a single long text
 * column uses the whole terminal).
 */
function cellCap(cells: readonly (readonly string[])[][], headerWidths: readonly number[], maxWidth: number, maxTotal: number | undefined): number {
  if (maxTotal === undefined) return maxWidth;
  const natural = headerWidths.map((_, c) => Math.max(0, ...cells.map((row) => Math.max(...row[c]!.map(displayWidth)))));
  const total = (cap: number): number => natural.reduce((s, w, c) => s + Math.max(headerWidths[c]!, Math.min(w, cap)) + 3, 1);
  let lo = maxWidth;
  let hi = Math.max(maxWidth, ...natural);
  if (total(lo) > maxTotal) return maxWidth;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (total(mid) <= maxTotal) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** An aligned text table of an Arrow result, ending with a row-count line. */
export function formatTable(t: ArrowTable, options: FormatOptions = {}): string {
  const maxRows = Math.max(2, options.maxRows ?? 40);
  const maxWidth = Math.max(4, options.maxWidth ?? 40);
  const fields = t.schema.fields;
  const n = t.numRows;
  const rows = pickRows(n, maxRows);
  const typeIds = columnTypeIds(t);
  const types = columnTypeNames(t);
  const vectors = fields.map((_, c) => t.getChildAt(c)!);
  const texts = fields.map((f) => cellFormatter(f.type, 'short'));
  // A header is one line: a newline in a column's name (`SELECT E'a\nb'`) shows as \n, as a tab does.
  const header = fields.map((f) => cutToWidth(visible(f.name).replace(/\n/g, '\\n'), maxWidth));
  // Each body cell is a list of lines, cut to the widest cell that still lets the table fit the terminal.
  const full: string[][][] = rows.map((r) => (r < 0
    ? header.map(() => ['·'])
    : vectors.map((v, c) => visible(texts[c]!(v.get(r))).split('\n'))));
  const cap = cellCap(full, header.map((h, c) => Math.max(displayWidth(h), types[c]!.length)), maxWidth, options.maxTotalWidth);
  const body = full.map((row) => row.map((lines) => lines.map((l) => cutToWidth(l, cap))));
  const widths = fields.map((_, c) => Math.max(displayWidth(header[c]!), types[c]!.length, ...body.map((row) => Math.max(...row[c]!.map(displayWidth)))));
  const shown = pickColumns(widths, options.maxTotalWidth);
  const numeric = typeIds.map((id) => id === Type.Int || id === Type.Float || id === Type.Decimal);
  const w = (c: number): number => (c < 0 ? 1 : widths[c]!);
  const cell = (text: string, c: number): string => (c >= 0 && numeric[c] ? padStart(text, w(c)) : padEnd(text, w(c)));
  const rule = (l: string, m: string, r: string): string => l + shown.map((c) => '─'.repeat(w(c) + 2)).join(m) + r;
  const line = (cells: (c: number) => string): string => `│${shown.map((c) => ` ${cells(c)} `).join('│')}│`;
  const out = [rule('┌', '┬', '┐'), line((c) => (c < 0 ? '…' : cell(header[c]!, c))), line((c) => (c < 0 ? '…' : cell(types[c]!, c))), rule('├', '┼', '┤')];
  for (const row of body) {
    const height = Math.max(...row.map((lines) => lines.length));
    for (let k = 0; k < height; k++) out.push(line((c) => (c < 0 ? (k === 0 ? '…' : ' ') : cell(row[c]![k] ?? '', c))));
  }
  out.push(rule('└', '┴', '┘'));
  const hiddenRows = n > rows.length ? ` (${rows.length - 1} shown)` : '';
  const hiddenCols = shown.includes(-1) ? `, ${fields.length} columns (${shown.length - 1} shown)` : '';
  out.push(`${n} row${n === 1 ? '' : 's'}${hiddenRows}${hiddenCols}`);
  return out.join('\n');
}
