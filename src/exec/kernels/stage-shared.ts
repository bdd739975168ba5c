/**
 * Common subexpressions across one projection's outputs (fused-stage.ts):
 * when output k's expression contains output j's (j < k) as a subtree, k is
 * compiled to read j's computed column instead of computing it again. TPC-H
 * Q1 projects `disc_price = l_extendedprice * (1 - l_discount)` and
 * `charge = l_extendedprice * (1 - l_discount) * (1 + l_tax)`: charge becomes
 * `$disc_price * (1 + l_tax)`, one load and two operations fewer per row.
 * An output equal to an earlier one reuses its column outright — unless the
 * earlier one is transient (its buffer is rewritten by the next batch) and
 * this one is not (its consumer keeps the column): then it is computed again.
 *
 * Why it is safe: only deterministic expressions without subqueries are
 * shared, and a shared column holds exactly the values (and NULLs) the
 * subtree would compute for the same rows — the stage evaluates j before k
 * over the same batch or the same compacted rows, and a value computed in
 * IEEE doubles does not depend on where it is computed. Errors (an integer
 * overflow) surface from j, on the same rows, before k runs.
 *
 * Why here and not in the planner: the stage is where a projection is turned
 * into loops; rewriting the plan would make the later outputs refer to
 * columns the Project does not have as inputs.
 */
import { canonicalRex } from '../../relnode/digest.js';
import { FUNCTIONS } from '../../relnode/functions.js';
import { inputRef, rexChildren, rexVisit, rexWithChildren, type RexNode } from '../../relnode/rex.js';
import { field, schemaOf, type Schema } from '../../relnode/types.js';

/** The projection's outputs rewritten to share computed subexpressions. */
export interface SharedOutputs {
  /** Per output: its expression over `schema` (earlier outputs' columns appended after the input's). */
  readonly exprs: readonly RexNode[];
  /** Per output: the earlier output whose column it is (an identical expression), or -1. */
  readonly alias: readonly number[];
  /** The outputs whose columns are appended to the input, in order: column `base + i` is output `shared[i]`. */
  readonly shared: readonly number[];
  /** The input schema followed by the shared outputs' fields. */
  readonly schema: Schema;
}

/** Whether `e` is worth a column of its own and may be reused: a deterministic computation without subqueries. */
function shareable(e: RexNode): boolean {
  if (e.kind !== 'Call' && e.kind !== 'Cast' && e.kind !== 'Case') return false;
  let ok = true;
  rexVisit(e, (x) => {
    if (x.kind === 'Subquery' || x.kind === 'OuterRef' || x.kind === 'AggRef') ok = false;
    if (x.kind === 'Call' && FUNCTIONS.get(x.op)?.deterministic === false) ok = false;
  });
  return ok;
}

/**
 * The outputs of `Project(exprs)` over `input` with shared subexpressions, or null when no output
 * contains an earlier one (the stage then compiles `exprs` as they are). `transient`: the outputs
 * whose columns may reuse one buffer batch after batch (fused-stage.ts compileStage).
 */
export function shareOutputs(exprs: readonly RexNode[], input: Schema, transient?: ReadonlySet<number>): SharedOutputs | null {
  const base = input.fields.length;
  const known = new Map<string, number>(); // canonical text → the output computing it
  const shared: number[] = [];
  const column = new Map<number, number>(); // output → its appended column
  const out: RexNode[] = [];
  const alias: number[] = [];
  let any = false;
  exprs.forEach((e, k) => {
    const text = shareable(e) ? canonicalRex(e) : undefined;
    const same = text === undefined ? undefined : known.get(text);
    if (same !== undefined && (transient?.has(same) !== true || transient.has(k))) { out.push(e); alias.push(same); any = true; return; }
    alias.push(-1);
    // Top-down: the largest earlier output inside e is replaced first.
    const rewrite = (x: RexNode): RexNode => {
      if (x !== e && shareable(x)) {
        const j = known.get(canonicalRex(x));
        if (j !== undefined) {
          let c = column.get(j);
          if (c === undefined) { c = base + shared.length; shared.push(j); column.set(j, c); }
          any = true;
          return inputRef(c, x.type);
        }
      }
      const ch = rexChildren(x);
      if (ch.length === 0 || x.kind === 'Subquery') return x;
      const nch = ch.map(rewrite);
      return nch.some((c, i) => c !== ch[i]) ? rexWithChildren(x, nch) : x;
    };
    out.push(known.size > 0 && text !== undefined ? rewrite(e) : e);
    if (text !== undefined && !known.has(text)) known.set(text, k);
  });
  if (!any) return null;
  const fields = [...input.fields, ...shared.map((j) => field(`$shared${j}`, exprs[j]!.type))];
  return { exprs: out, alias, shared, schema: schemaOf(fields) };
}
