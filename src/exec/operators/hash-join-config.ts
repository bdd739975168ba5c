/**
 * A hash join's configuration (plain data, as lowering writes it and workers receive it) and the
 * checks of its invariants (exec/operators/hash-join.ts runs them when it creates a join).
 */
import type { KeyKind } from '../kernels/hash.js';
import type { RuntimeFilterSlot } from '../runtime-filter.js';
import type { JoinPredicate } from './join-output.js';
import { InternalError } from '../../relnode/errors.js';

/** Configuration of a hash join (plain data). */
export interface HashJoinConfig {
  readonly joinType: 'inner' | 'left' | 'right' | 'full' | 'semi' | 'anti';
  /** Left input ordinals of the equi-keys. */
  readonly leftKeys: readonly number[];
  /** Right input ordinals, pairwise with leftKeys. */
  readonly rightKeys: readonly number[];
  /**
   * How each key pair compares: the kind of the comparison after its type
   * coercion (the planner strips widening casts from key columns, so the
   * column types alone may say less). Default: from the two column types.
   */
  readonly keyKinds?: readonly KeyKind[];
  /** Non-equi part of the condition, over left columns then right columns. */
  readonly residual?: JoinPredicate;
  readonly buildSide: 'left' | 'right';
  /** Publishes the build keys as runtime filters for the probe side's scans (exec/runtime-filter.ts). */
  readonly runtimeFilter?: RuntimeFilterSlot;
  /** Per output column: false when nothing above the join reads it (emitted as a placeholder, join-output.ts). */
  readonly used?: readonly boolean[];
  /**
   * Emit the build side's VARCHAR columns as dictionary codes whatever the build side's size (join-output.ts
   * "Dictionary gather"): lowering sets it when only a single-instance grouped aggregate reads the output.
   */
  readonly dictionaryOutput?: boolean;
  /**
   * NOT IN's anti join (`a = b OR a IS NULL OR b IS NULL`, or one NULL test where the other side is never
   * NULL; anti, one key, build = right, no residual):
   * a non-empty build side with a NULL key drops every probe row, and a probe row with a NULL key is
   * dropped unless the build side is empty. Needs the whole build side in one instance (parallelism 1).
   */
  readonly nullAware?: boolean;
}

/** Throws InternalError when a configuration breaks the join's invariants. */
export function checkHashJoinConfig(config: HashJoinConfig): void {
  if (config.leftKeys.length !== config.rightKeys.length || config.leftKeys.length === 0) {
    throw new InternalError(`hash join needs pairwise equi-keys, got ${config.leftKeys.length} left and ${config.rightKeys.length} right`);
  }
  if (config.nullAware && (config.joinType !== 'anti' || config.buildSide !== 'right' || config.leftKeys.length !== 1 || config.residual)) {
    throw new InternalError('a NULL-aware hash join is an anti join on one key building the right side, without residual');
  }
}
