/**
 * Renders query results as aligned text tables with the column types in the
 * header, truncating long results with a row count.
 */
import type { Table as ArrowTable } from 'apache-arrow';
import { Type } from 'apache-arrow';
import { fromArrowType } from '../relnode/types.js';

/** Options of `formatTable`. */
export interface FormatOptions {
  /** Rows shown before truncating (the first half and the last half). Default 40. */
  readonly maxRows?: number;
  /** Longest cell before it is cut with '…'. Default 40. */
  readonly maxWidth?: number;
}

/** Renders one value for display. */
export function formatValue(v: unknown, typeId: Type): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeId === Type.Date) return new Date(Number(v)).toISOString().slice(0, 10);
  if (typeId === Type.Timestamp) return new Date(Number(v)).toISOString().replace('T', ' ').replace(/\.000Z$|Z$/, '');
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Math.round(v * 1e6) / 1e6);
  return String(v);
}

/** An aligned text table of an Arrow result. */
export function formatTable(t: ArrowTable, options: FormatOptions = {}): string {
  const maxRows = options.maxRows ?? 40;
  const maxWidth = options.maxWidth ?? 40;
  const fields = t.schema.fields;
  const n = t.numRows;
  const pick = n <= maxRows ? [...Array(n).keys()] : [...Array(Math.ceil(maxRows / 2)).keys(), -1, ...Array.from({ length: Math.floor(maxRows / 2) }, (_, i) => n - Math.floor(maxRows / 2) + i)];
  const cols = fields.map((_, c) => t.getChildAt(c)!);
  const cut = (s: string): string => (s.length > maxWidth ? `${s.slice(0, maxWidth - 1)}…` : s);
  const header = fields.map((f) => f.name);
  const types = fields.map((f) => (fromArrowType(f.type) ?? String(f.type)).toLowerCase());
  const typeIds = fields.map((f) => (f.type.typeId === Type.Dictionary ? Type.Utf8 : f.type.typeId));
  const body = pick.map((r) => (r < 0 ? header.map(() => '·') : cols.map((c, i) => cut(formatValue(c.get(r), typeIds[i]!)))));
  const widths = header.map((h, i) => Math.max(h.length, types[i]!.length, ...body.map((row) => row[i]!.length)));
  const numeric = typeIds.map((id) => id === Type.Int || id === Type.Float);
  const line = (l: string, m: string, r: string): string => l + widths.map((w) => '─'.repeat(w + 2)).join(m) + r;
  const row = (cells: string[]): string => `│${cells.map((c, i) => ` ${numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)} `).join('│')}│`;
  const out = [line('┌', '┬', '┐'), row(header), row(types), line('├', '┼', '┤'), ...body.map(row), line('└', '┴', '┘')];
  out.push(`${n} row${n === 1 ? '' : 's'}${n > maxRows ? ` (${maxRows} shown)` : ''}`);
  return out.join('\n');
}
