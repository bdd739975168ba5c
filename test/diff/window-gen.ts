/**
 * A random generator of window-function queries for the differential test
 * (window.test.ts): a small table with partition keys, order keys with ties
 * and NULLs, and values of every type; queries with one to three window
 * calls, each with its own PARTITION BY, ORDER BY (directions and NULL
 * orders) and frame (ROWS or RANGE, every bound kind). A call whose result
 * depends on the order among peers (row_number, lag, ROWS frames, ...) gets
 * the unique `id` as a last ORDER BY key, so both engines must agree exactly.
 */
import type { ColumnType } from '../helpers/duckdb.js';
import { Rng } from './random/prng.js';

/** Columns of the generated table `win`. */
export const WIN_COLUMNS: Readonly<Record<string, ColumnType>> = {
  id: 'INTEGER', g: 'INTEGER', h: 'VARCHAR', o: 'INTEGER', d: 'DOUBLE', v: 'INTEGER', b: 'BIGINT', s: 'VARCHAR', dt: 'DATE',
};

/** Rows of `win`: few partition values, many order-key ties, NULLs in every column but id. */
export function winRows(seed: number, n: number): Record<string, unknown>[] {
  const r = new Rng(seed);
  const maybe = <T>(p: number, v: () => T): T | null => (r.chance(p) ? null : v());
  const rows: Record<string, unknown>[] = [];
  for (let id = 0; id < n; id++) {
    rows.push({
      id,
      g: maybe(0.1, () => r.int(0, 3)),
      h: maybe(0.1, () => r.pick(['a', 'b', 'c'])),
      o: maybe(0.15, () => r.int(-3, 8)),
      // Quarters are exact in binary: sums do not depend on the order of addition.
      d: maybe(0.15, () => r.int(-20, 40) / 4),
      v: maybe(0.15, () => r.int(-100, 100)),
      b: maybe(0.15, () => r.int(-1000, 1000) * 1_000_000_007),
      s: maybe(0.15, () => r.pick(['x', 'y', 'z', 'xy', 'é', ''])),
      dt: maybe(0.15, () => `2024-01-${String(r.int(1, 20)).padStart(2, '0')}`),
    });
  }
  return rows;
}

const ORDER_COLS = ['o', 'd', 's', 'dt', 'g'];
const RANGE_KEYS = ['o', 'd', 'dt'];
/** Functions whose result depends on the order among peers. */
const ORDER_SENSITIVE = new Set(['row_number', 'ntile', 'lag', 'lead', 'first_value', 'last_value', 'nth_value']);

function orderItem(r: Rng, col: string): string {
  const dir = r.pick(['', ' ASC', ' DESC']);
  const nulls = r.pick(['', '', ' NULLS FIRST', ' NULLS LAST']);
  return `${col}${dir}${nulls}`;
}

function bound(r: Rng, rangeKey: string | undefined, rows: boolean): string {
  const offset = (): string => {
    if (rows) return String(r.int(0, 4));
    if (rangeKey === 'dt') return `INTERVAL ${r.int(0, 3)} DAY`;
    return rangeKey === 'd' ? r.pick(['0', '1', '2.5', '5']) : String(r.int(0, 3));
  };
  const kinds = rows || rangeKey !== undefined ? ['UNBOUNDED PRECEDING', 'p', 'CURRENT ROW', 'f', 'UNBOUNDED FOLLOWING'] : ['UNBOUNDED PRECEDING', 'CURRENT ROW', 'UNBOUNDED FOLLOWING'];
  const k = r.pick(kinds);
  return k === 'p' ? `${offset()} PRECEDING` : k === 'f' ? `${offset()} FOLLOWING` : k;
}

const RANK: Readonly<Record<string, number>> = { 'UNBOUNDED PRECEDING': 0, 'CURRENT ROW': 2, 'UNBOUNDED FOLLOWING': 4 };
const offsetOf = (b: string): number => Number(/-?[\d.]+/.exec(b)?.[0] ?? 0);
const rankOf = (b: string): number => RANK[b] ?? (b.endsWith('PRECEDING') ? 1 : 3);

/** A frame clause whose end does not come before its start (a valid frame for both engines), or ''. */
function frame(r: Rng, orderKeys: string[]): { text: string; rows: boolean } {
  const choice = r.int(0, 3);
  if (choice === 0) return { text: '', rows: false };
  const rows = choice === 1;
  const single = orderKeys.length === 1 ? orderKeys[0]!.split(' ')[0]! : undefined;
  const rangeKey = !rows && single !== undefined && RANGE_KEYS.includes(single) ? single : undefined;
  for (;;) {
    const s = bound(r, rangeKey, rows);
    const e = bound(r, rangeKey, rows);
    const rs = rankOf(s); const re = rankOf(e);
    if (rs === 4 || re === 0 || re < rs || (rs === 2 && re === 1) || (rs === 3 && re <= 2)) continue;
    // Inverted offsets (2 PRECEDING AND 3 PRECEDING) frame nothing; DuckDB 1.x counts such frames as -1, eddy as 0.
    if (rs === re && (rs === 1 || rs === 3) && offsetOf(s) !== offsetOf(e) && (offsetOf(s) < offsetOf(e)) === (rs === 1)) continue;
    return { text: ` ${rows ? 'ROWS' : 'RANGE'} BETWEEN ${s} AND ${e}`, rows };
  }
}

/** One window call `fn(...) OVER (...)`. */
function windowCall(r: Rng): string {
  const fn = r.pick(['row_number', 'rank', 'dense_rank', 'percent_rank', 'cume_dist', 'ntile', 'lag', 'lead', 'first_value', 'last_value', 'nth_value', 'count', 'count_star', 'sum', 'avg', 'min', 'max', 'stddev']);
  const parts: string[] = [];
  const partition = r.pick([[], ['g'], ['h'], ['g', 'h']]);
  if (partition.length > 0) parts.push(`PARTITION BY ${partition.join(', ')}`);
  let order = Array.from({ length: r.int(fn === 'row_number' || ORDER_SENSITIVE.has(fn) ? 1 : 0, 2) }, () => orderItem(r, r.pick(ORDER_COLS)));
  const f = frame(r, order);
  const rangeOffset = f.text.includes('RANGE') && /(\d|DAY) (PRECEDING|FOLLOWING)/.test(f.text);
  const usesFrame = !['row_number', 'rank', 'dense_rank', 'percent_rank', 'cume_dist', 'ntile', 'lag', 'lead'].includes(fn);
  const needsTotal = ORDER_SENSITIVE.has(fn) || (usesFrame && f.rows);
  let frameText = usesFrame || r.chance(0.2) ? f.text : '';
  if (needsTotal) {
    if (rangeOffset) frameText = ''; // RANGE offsets need the one key; fall back to the default frame
    order = [...order, 'id'];
  }
  if (order.length > 0) parts.push(`ORDER BY ${order.join(', ')}`);
  const over = `OVER (${parts.join(' ')}${order.length > 0 || !frameText.includes('RANGE') ? frameText : ''})`;
  const num = r.pick(['v', 'd', 'b']);
  const any = r.pick(['v', 'd', 'b', 's', 'dt', 'o']);
  switch (fn) {
    case 'ntile': return `ntile(${r.int(1, 7)}) ${over}`;
    case 'lag': case 'lead': {
      const x = r.pick(['v', 's', 'dt']);
      const dflt = x === 'v' ? '-1' : x === 's' ? `'none'` : `DATE '2000-01-01'`;
      const args = r.pick([[x], [x, String(r.int(0, 3))], [x, String(r.int(1, 3)), dflt]]);
      return `${fn}(${args.join(', ')}) ${over}`;
    }
    case 'nth_value': return `nth_value(${any}, ${r.int(1, 3)}) ${over}`;
    case 'first_value': case 'last_value': case 'min': case 'max': return `${fn}(${any}) ${over}`;
    case 'count': return `count(${any}) ${over}`;
    case 'count_star': return `count(*) ${over}`;
    case 'sum': case 'avg': return `${fn}(${num}) ${over}`;
    case 'stddev': return `stddev(d) ${over}`;
    default: return `${fn}() ${over}`;
  }
}

/** A query over `win`: id and one to three window calls (r0, r1, ...), sometimes filtered by QUALIFY. */
export function windowQuery(seed: number): string {
  const r = new Rng(seed);
  const calls = Array.from({ length: r.int(1, 3) }, () => windowCall(r));
  const qualify = r.chance(0.15) ? ` QUALIFY r0 IS NOT NULL AND id % 3 <> 0` : '';
  return `SELECT id, ${calls.map((c, i) => `${c} AS r${i}`).join(', ')} FROM win${qualify}`;
}
