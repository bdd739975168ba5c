/**
 * Which output columns of a plan are never NULL, read from the plan below them: columns declared
 * NOT NULL, columns a Filter's conjunct rejects NULLs of (`x IS NOT NULL`, `x = 3`, `x + 1 < y`, ...),
 * the equi-keys of an inner join (a NULL key never joins) and of a semi join's left side, passed
 * up through Projects that reference them, sorts, limits and DISTINCT.
 *
 * Why here and not in the schema's `nullable` flags: the flags are derived once per node when it is
 * built, and the optimizer moves filters and joins around afterwards; this reads the final plan at
 * lowering, where NOT IN's anti join (not-in-join.ts) drops the NULL tests of columns it shows never
 * NULL and so hashes on them (`WHERE x IS NOT NULL` in a NOT IN subquery: a plain anti join).
 * Conservative: an unknown node passes on only its schema's NOT NULL columns.
 */
import type { RelNode } from '../relnode/rel.js';
import { conjuncts, rexInputs, type RexNode } from '../relnode/rex.js';
import { keyColumn } from './key-column.js';
import { rejectsNulls } from './rules/simplify-outer-joins.js';

/** Whether output column `c` of `n` is never NULL. */
export function neverNull(n: RelNode, c: number): boolean {
  return nonNullColumns(n).has(c);
}

/** The output ordinals of `n` that are never NULL. */
export function nonNullColumns(n: RelNode): Set<number> {
  const out = new Set<number>();
  n.schema.fields.forEach((f, i) => { if (!f.nullable) out.add(i); });
  switch (n.kind) {
    case 'Filter': {
      for (const c of nonNullColumns(n.input)) out.add(c);
      for (const c of conjuncts(n.condition)) for (const col of rejectedNulls(c)) out.add(col);
      break;
    }
    case 'Project': {
      const below = nonNullColumns(n.input);
      n.exprs.forEach((e, i) => { const c = keyColumn(e); if (c !== undefined && below.has(c)) out.add(i); });
      break;
    }
    case 'Sort': case 'Limit': case 'Distinct':
      for (const c of nonNullColumns(n.input)) out.add(c);
      break;
    case 'Join': {
      const lw = n.left.schema.fields.length;
      const jt = n.joinType;
      // The side whose rows come out as they are (an outer join's other side is padded with NULLs).
      if (jt !== 'right' && jt !== 'full') for (const c of nonNullColumns(n.left)) out.add(c);
      if (jt === 'inner' || jt === 'cross' || jt === 'right') for (const c of nonNullColumns(n.right)) out.add(lw + c);
      if (n.joinType === 'inner' || n.joinType === 'semi') {
        for (const c of conjuncts(n.condition)) {
          if (c.kind !== 'Call' || c.op !== 'eq') continue;
          for (const a of c.args) {
            const col = keyColumn(a);
            if (col !== undefined && (n.joinType === 'inner' || col < lw)) out.add(col);
          }
        }
      }
      break;
    }
    default:
      break;
  }
  return out;
}

/**
 * The columns a WHERE conjunct rejects the NULLs of: each input column whose NULL makes the conjunct
 * NULL or FALSE (rules/simplify-outer-joins.ts rejectsNulls, the test outer-join simplification uses).
 */
function rejectedNulls(c: RexNode): number[] {
  const out: number[] = [];
  for (const col of rexInputs(c)) if (rejectsNulls(c, col, col + 1)) out.push(col);
  return out;
}
