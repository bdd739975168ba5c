/**
 * A hint for a date written without DATE or quotes: `l_shipdate > 1995-01-01` parses as the
 * subtraction 1995 − 1 − 1, and the comparison then fails on DATE against INTEGER. The message
 * says so and shows the literal to write.
 *
 * `ts1 - ts2` of two TIMESTAMPs is an INTERVAL in DuckDB, a type eddy does not have yet: the message
 * names the functions that give the difference as a number.
 *
 * Decision: the hints look only at the bound arguments of the failing call (two subtractions of
 * integer literals, a year of four digits, a month 1–12 and a day 1–31, next to a DATE or TIMESTAMP
 * argument): the source text is not needed, and nothing changes for a query that binds.
 */
import type { RexNode } from '../../relnode/rex.js';

function intLiteral(e: RexNode): number | undefined {
  if (e.kind !== 'Literal' || (e.type !== 'INTEGER' && e.type !== 'BIGINT')) return undefined;
  const v = Number(e.value);
  return Number.isSafeInteger(v) && v >= 0 ? v : undefined;
}

/** `y - m - d` as the date text `yyyy-mm-dd`, if `e` is such a subtraction of integer literals. */
function subtractedDate(e: RexNode): string | undefined {
  if (e.kind !== 'Call' || e.op !== 'minus' || e.args.length !== 2) return undefined;
  const inner = e.args[0]!;
  if (inner.kind !== 'Call' || inner.op !== 'minus' || inner.args.length !== 2) return undefined;
  const y = intLiteral(inner.args[0]!), m = intLiteral(inner.args[1]!), d = intLiteral(e.args[1]!);
  if (y === undefined || m === undefined || d === undefined) return undefined;
  if (y < 1000 || y > 9999 || m < 1 || m > 12 || d < 1 || d > 31) return undefined;
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/**
 * The hint to append to a type error of a call over `args` (with its leading "; "), or '' when no
 * argument is a date written as a subtraction next to a DATE or TIMESTAMP one.
 */
export function dateArithmeticHint(args: readonly RexNode[], fn?: string): string {
  if (fn === 'minus' && args.length === 2 && args.every((a) => a.type === 'DATE' || a.type === 'TIMESTAMP') && args.some((a) => a.type === 'TIMESTAMP')) {
    return "; a difference of TIMESTAMPs is an INTERVAL, which eddy does not have yet: date_diff('second', b, a) or epoch(a) - epoch(b) gives it as a number";
  }
  const temporal = args.find((a) => a.type === 'DATE' || a.type === 'TIMESTAMP');
  if (temporal === undefined) return '';
  for (const a of args) {
    const text = subtractedDate(a);
    if (text !== undefined) return `; ${text} without quotes is the subtraction ${text.split('-').map(Number).join(' - ')}: write ${temporal.type} '${text}'`;
  }
  return '';
}
