/**
 * The spec of a fused body pipeline (pipeline.ts): its join steps over the
 * spine's rows and its terminal (chosen columns or a per-round GROUP BY).
 * Kept apart from the operator so the planner (lower-iterate-fuse.ts) and the
 * pair loops (pipeline-fused.ts) share the shapes without importing the operator.
 */
import type { SqlType } from '../../relnode/types.js';

/** A column of a joined row: source 0 is the spine batch, source j + 1 the rows of step j. */
export interface Ref { readonly src: number; readonly col: number }
export type CmpOp = 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge';
/** `a op b` over INTEGER columns (or a constant); NULL fails. */
export interface Cmp { readonly op: CmpOp; readonly a: Ref; readonly b: Ref | { readonly value: number } }

export type PipelineStep =
  /** A static side on input `input`, joined on its column `buildKey` = `probe`. */
  | { readonly kind: 'static'; readonly input: number; readonly buildKey: number; readonly probe: Ref; readonly residual: readonly Cmp[] }
  /** The keyed table of `variable` (one INTEGER key), joined on its key = `probe`. */
  | { readonly kind: 'store'; readonly iterationId: number; readonly variable: number; readonly keys: readonly number[]; readonly types: readonly SqlType[]; readonly probe: Ref; readonly residual: readonly Cmp[] };

export type AggFnFused = 'min' | 'max' | 'count' | 'count_star';
export type PipelineTerminal =
  | { readonly kind: 'rows'; readonly out: readonly Ref[] }
  | { readonly kind: 'agg'; readonly groups: readonly Ref[]; readonly aggs: readonly { readonly fn: AggFnFused; readonly arg?: Ref }[]; readonly prune?: PruneSpec };

/**
 * A keep-min iteration's shortcut (Iterate.keepMin): the pair loop skips a pair whose value of min aggregate `agg`
 * is not below the keyed table's `column` at the pair's group key — the keyed table would drop that candidate
 * anyway (its values only go down), so only the work changes, never the answer.
 */
export interface PruneSpec {
  readonly iterationId: number; readonly variable: number; readonly keys: readonly number[]; readonly types: readonly SqlType[]; readonly column: number; readonly agg: number;
  /**
   * The pipeline's spine is the variable's own working rows (its columns unchanged): the pair loop may read a
   * row's label as the least one its key has so far this round (pipeline-fused.ts, in-place updates).
   */
  readonly spineIsVariable?: boolean;
}

export interface PipelineSpec {
  readonly steps: readonly PipelineStep[];
  readonly terminal: PipelineTerminal;
}
