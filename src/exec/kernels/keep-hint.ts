/**
 * Branching or branch-free selection loops, chosen from the share of rows the
 * previous batch kept.
 *
 * A selection loop writes the indexes of the rows that pass a test. Written
 * with a branch (`if (!cond) continue; out[k++] = i`) it costs a mispredicted
 * branch for every row whose outcome the predictor cannot guess; written
 * without one (`out[k] = i; k += +cond`, which V8 compiles to a compare and an
 * add) it costs the same for every row. `npm run bench:keep-hint` (CPU ns per
 * tested row, 64K-row INTEGER batches, outcomes at random, this project's
 * 2-core VM at load ~3): at 50% kept 8.5 → 5.6 over whole batches and
 * 11.8 → 8.0 through a selection vector, at 30% 6.3 → 4.9 and 9.9 → 7.8, at
 * 80% 6.4 → 5.1 and 9.1 → 7.7; at 15% the branching loop is as fast or faster
 * (4.8 vs 5.6 whole), at 5% and 98% it is (it predicts). TPC-H Q3's orders
 * scan keeps 48% of the rows its customer filter kept by `o_orderdate < DATE
 * '1995-03-15'`, at random.
 *
 * Decision: each compiled test keeps one hint per caller, set after every batch
 * from that batch's kept share: branch-free between FLAT_MIN and FLAT_MAX, the
 * branch outside (where it predicts). Both loops give the same rows; only the
 * speed depends on the choice, so a hint shared by two callers (two subtasks of
 * one operator in one isolate) is never wrong, at worst slow.
 */

/** Kept share from which the branch-free loop is taken. */
export const FLAT_MIN = 0.2;
/** Kept share up to which the branch-free loop is taken. */
export const FLAT_MAX = 0.9;

/** For benchmarks and A/B runs: `flatLoops` false keeps every test on its branching loop. */
export const keepHintTuning = { flatLoops: true };

/** One test's loop choice, kept from batch to batch. */
export class KeepHint {
  /** Take the branch-free loop on the next batch. */
  flat = false;

  /** Records that a batch kept `kept` of `tested` rows. */
  note(kept: number, tested: number): void {
    if (tested < 64) return; // too few rows to say anything about the next batch
    const r = kept / tested;
    this.flat = keepHintTuning.flatLoops && r >= FLAT_MIN && r <= FLAT_MAX;
  }
}
