/**
 * range(stop) / range(start, stop[, step]) and generate_series(start,
 * stop[, step]) in FROM: DuckDB's integer series, one BIGINT column named
 * after the function; range excludes stop, generate_series includes it.
 * Arguments are integer constants. The series is a Values node (a constant
 * relation, digest and cache like any other); past MAX_RANGE_ROWS it is an
 * error rather than a silent truncation.
 */
import { values, type RelNode } from '../../relnode/rel.js';
import { field, schemaOf } from '../../relnode/types.js';
import type { Expr, FromItem } from '../ast.js';
import { sqlError, type SqlContext } from './context.js';

/** The most rows a range() may produce. */
export const MAX_RANGE_ROWS = 5_000_000;

type TableFunctionItem = Extract<FromItem, { kind: 'tableFunction' }>;

function intArg(sql: SqlContext, it: TableFunctionItem, e: Expr): bigint {
  const neg = e.kind === 'unary' && e.op === '-';
  const x = neg ? e.arg : e;
  if (x.kind === 'literal' && x.literal === 'number' && /^\d+$/.test(x.value ?? '')) return (neg ? -1n : 1n) * BigInt(x.value!);
  throw sqlError(sql, e.pos, `${it.name}() takes integer constants, e.g. ${it.name}(0, 10, 2)`);
}

/** The relation of a range / generate_series call. */
export function rangeRelation(sql: SqlContext, it: TableFunctionItem): RelNode {
  const name = it.name.toLowerCase();
  if (it.options.length > 0) throw sqlError(sql, it.options[0]!.value.pos, `${it.name} takes no options`);
  if (it.args.length < 1 || it.args.length > 3) throw sqlError(sql, it.pos, `${it.name} takes 1 to 3 integer arguments (start, stop, step), got ${it.args.length}`);
  const a = it.args.map((e) => intArg(sql, it, e));
  const [start, stop, step] = a.length === 1 ? [0n, a[0]!, 1n] : [a[0]!, a[1]!, a[2] ?? 1n];
  if (step === 0n) throw sqlError(sql, it.pos, `${it.name}: the step must not be 0`);
  const inclusive = name === 'generate_series';
  const end = inclusive ? stop + (step > 0n ? 1n : -1n) : stop;
  const span = step > 0n ? end - start : start - end;
  const abs = step > 0n ? step : -step;
  const count = span <= 0n ? 0n : (span + abs - 1n) / abs;
  if (count > BigInt(MAX_RANGE_ROWS)) throw sqlError(sql, it.pos, `${it.name}() would produce ${count} rows; at most ${MAX_RANGE_ROWS} are supported`);
  const rows: bigint[][] = [];
  for (let k = 0n, v = start; k < count; k++, v += step) rows.push([v]);
  return values(rows, schemaOf([field(name === 'generate_series' ? 'generate_series' : 'range', 'BIGINT', false)]));
}
