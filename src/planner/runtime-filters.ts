/**
 * Where a hash join's runtime filter goes (sideways information passing,
 * exec/runtime-filter.ts): for each equi-key, the scan below the probe side
 * whose column the probe key is, traced down through the operators that keep
 * a row's key value and drop no row the join could match.
 *
 * Decision: a filter may only remove probe rows the join itself would drop,
 * so the join must drop unmatched probe rows (inner; semi and right joins
 * probing their left side; semi and anti joins probing their right side) and the path to the scan passes only Filter,
 * column-reference Project, and the row-preserving or inner sides of joins
 * (inner both sides; left/semi/anti the left; right the right). Aggregates,
 * limits, sorts, unions and outer sides stop the trace: removing rows below
 * them changes more than the rows with that key. Keys must be integer-valued
 * on both sides (INTEGER/BIGINT, or DATE with DATE): the filter compares
 * numbers. A scan that occurs twice in the probe subtree (the same node
 * object) is skipped: lowering could not tell the occurrences apart.
 */
import type * as rel from '../relnode/rel.js';
import type { RelNode } from '../relnode/rel.js';
import { rexInputs, rexShift, type RexNode } from '../relnode/rex.js';
import type { SqlType } from '../relnode/types.js';
import { compileSafeRefine } from '../exec/kernels/index.js';
import type { Prefilter } from '../exec/runtime-filter.js';

/** One probe-side scan column a join key's filter applies to. */
export interface RuntimeFilterTarget {
  /** Index of the equi-key in the join's key list. */
  readonly key: number;
  readonly scan: rel.Scan;
  /** Ordinal of the scan's output column holding the key. */
  readonly column: number;
}

/** Whether a join of this type drops probe rows without a match, for the probe side `probe`. */
export function dropsUnmatchedProbe(joinType: rel.JoinType, probe: 'left' | 'right'): boolean {
  if (joinType === 'inner') return true;
  if (probe === 'left') return joinType === 'semi' || joinType === 'right';
  // Building the left side, a semi or anti join only marks left rows a right row matches.
  return joinType === 'left' || joinType === 'semi' || joinType === 'anti';
}

function integral(a: SqlType, b: SqlType): boolean {
  const int = (t: SqlType): boolean => t === 'INTEGER' || t === 'BIGINT';
  return (int(a) && int(b)) || (a === 'DATE' && b === 'DATE');
}

/** The scan column that output column `col` of `n` reads unchanged, with the rows `n` keeps a subset per key. */
export function traceToScan(n: RelNode, col: number): { scan: rel.Scan; column: number } | undefined {
  switch (n.kind) {
    case 'Scan': return { scan: n, column: col };
    case 'Filter': return traceToScan(n.input, col);
    case 'Project': {
      const e = n.exprs[col];
      return e !== undefined && e.kind === 'InputRef' ? traceToScan(n.input, e.index) : undefined;
    }
    // Removing the input rows of a group key value removes exactly that group.
    case 'Aggregate': return col < n.groupKeys.length ? traceToScan(n.input, n.groupKeys[col]!) : undefined;
    case 'Distinct': return traceToScan(n.input, col);
    case 'Join': {
      const lw = n.left.schema.fields.length;
      const onLeft = col < lw;
      switch (n.joinType) {
        case 'inner': case 'cross': return onLeft ? traceToScan(n.left, col) : traceToScan(n.right, col - lw);
        case 'left': case 'semi': case 'anti': return onLeft ? traceToScan(n.left, col) : undefined;
        case 'right': return onLeft ? undefined : traceToScan(n.right, col - lw);
        default: return undefined;
      }
    }
    default: return undefined;
  }
}

function countNode(n: RelNode, target: RelNode): number {
  if (n === target) return 1;
  let c = 0;
  for (const i of inputsOf(n)) c += countNode(i, target);
  return c;
}

function inputsOf(n: RelNode): readonly RelNode[] {
  switch (n.kind) {
    case 'Join': case 'SetOp': return [n.left, n.right];
    case 'Union': return n.inputs;
    case 'Scan': case 'Values': case 'CacheSource': return [];
    default: return 'input' in n ? [n.input as RelNode] : [];
  }
}

/**
 * The runtime filter targets of a hash join building on `buildSide` with
 * equi-keys `leftKeys[i] = rightKeys[i]` (ordinals of each side).
 */
export function runtimeFilterTargets(join: rel.Join, buildSide: 'left' | 'right', leftKeys: readonly number[], rightKeys: readonly number[]): RuntimeFilterTarget[] {
  const probeSide = buildSide === 'left' ? 'right' : 'left';
  if (!dropsUnmatchedProbe(join.joinType, probeSide)) return [];
  const probe = probeSide === 'left' ? join.left : join.right;
  const probeKeys = probeSide === 'left' ? leftKeys : rightKeys;
  const out: RuntimeFilterTarget[] = [];
  probeKeys.forEach((pk, key) => {
    const lt = join.left.schema.fields[leftKeys[key]!]!.type;
    const rt = join.right.schema.fields[rightKeys[key]!]!.type;
    if (!integral(lt, rt)) return;
    const t = traceToScan(probe, pk);
    if (t === undefined || countNode(probe, t.scan) !== 1) return;
    out.push({ key, scan: t.scan, column: t.column });
  });
  return out;
}

/**
 * The prefilter of a scan that takes runtime filters: its pushed conjuncts that cannot raise,
 * over its output columns (conjuncts reading a column it does not output are left out), run on
 * the rows the key filters kept so they are copied once (exec/runtime-filter.ts). Pushed
 * conjuncts are copies of a Filter's that stays above the scan (push-down-filter.ts), so the
 * prefilter only drops rows that Filter drops.
 */
export function scanPrefilter(scan: rel.Scan): Prefilter | undefined {
  if (scan.pushedFilters === undefined) return undefined;
  const outOf = new Map<number, number>();
  const proj = scan.projection;
  const width = scan.schema.fields.length;
  for (let j = 0; j < width; j++) outOf.set(proj === undefined ? j : proj[j]!, j);
  const over: RexNode[] = [];
  for (const c of scan.pushedFilters) {
    if ([...rexInputs(c)].every((t) => outOf.has(t))) over.push(rexShift(c, (t) => outOf.get(t)!));
  }
  return over.length === 0 ? undefined : compileSafeRefine(over, scan.schema);
}
