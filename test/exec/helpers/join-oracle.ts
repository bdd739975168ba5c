/**
 * A row-at-a-time reference join for tests: SQL semantics (NULL keys never
 * match), every join type, an optional residual over the joined row.
 */
import type { RecordBatch } from 'apache-arrow';
import type { LiteralValue } from '../../../src/relnode/rex.js';
import type { JoinType } from '../../../src/relnode/rel.js';
import { rowsOf } from './fake-context.js';

type Row = LiteralValue[];

/** The expected rows of an equi-join with an optional residual (unordered). */
export function oracleJoin(jt: JoinType, left: Row[], right: Row[], lk: number[], rk: number[], residual?: (row: Row) => boolean, widths: [number, number] = [3, 3]): Row[] {
  const match = (l: Row, r: Row): boolean =>
    lk.every((k, i) => l[k] !== null && r[rk[i]!] !== null && l[k] === r[rk[i]!]) && (residual === undefined || residual([...l, ...r]));
  return oracle(jt, left, right, widths[0], widths[1], match);
}

/** The expected rows of a join whose condition is an arbitrary row predicate. */
export function oracle(jt: JoinType, left: Row[], right: Row[], lw: number, rw: number, match: (l: Row, r: Row) => boolean): Row[] {
  const out: Row[] = [];
  const rMatched = new Array<boolean>(right.length).fill(false);
  for (const l of left) {
    let any = false;
    right.forEach((r, j) => {
      if (!match(l, r)) return;
      any = true;
      rMatched[j] = true;
      if (jt !== 'semi' && jt !== 'anti') out.push([...l, ...r]);
    });
    if (jt === 'semi' && any) out.push([...l]);
    if (jt === 'anti' && !any) out.push([...l]);
    if ((jt === 'left' || jt === 'full') && !any) out.push([...l, ...new Array<LiteralValue>(rw).fill(null)]);
  }
  if (jt === 'right' || jt === 'full') right.forEach((r, j) => { if (!rMatched[j]) out.push([...new Array<LiteralValue>(lw).fill(null), ...r]); });
  return out;
}

/** A residual predicate (the compiled-kernel shape) from a row function, for tests. */
export function rowPredicate(f: (row: Row) => boolean): (batch: RecordBatch) => Int32Array | null {
  return (batch) => {
    const rows = rowsOf([batch]);
    const sel: number[] = [];
    rows.forEach((r, i) => { if (f(r)) sel.push(i); });
    return sel.length === rows.length ? null : Int32Array.from(sel);
  };
}
