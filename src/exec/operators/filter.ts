/**
 * Filter: keeps the rows whose predicate is TRUE. A batch where every row
 * survives passes through untouched; a batch where none does is dropped (no
 * empty batches).
 *
 * The predicate writes its selection into one scratch array per operator
 * instance, consumed (gathered) before the next batch: a fresh 64K-row
 * selection per batch was 24 MB of array buffers per TPC-H Q12/Q14 run
 * (6M lineitem rows), and such allocations drive V8's full collections.
 * The scratch comes from the thread's pool and goes back at close
 * (kernels/buffer-pool.ts): instances are per run, so it was fresh bytes
 * every query (TPC-H Q3: 0.5 MB per run).
 *
 * FilterProject (late materialization, kernels/fused-stage.ts): a Filter and
 * the Project above it as one operator. The projection is evaluated through
 * the filter's selection vector and only its output columns are gathered,
 * once; columns the filter alone reads (Q1's l_shipdate) are never copied.
 */
import type { RecordBatch } from 'apache-arrow';
import type { Predicate } from '../kernels/index.js';
import { materialize, type Stage } from '../kernels/fused-stage.js';
import { batchFromColumns, takeBatch, takeData } from '../batch.js';
import { packedMap } from '../packed.js';
import { nullColumn } from '../kernels/column.js';
import { giveArray, takeScratch } from '../kernels/buffer-pool.js';
import type { Operator, OperatorContext } from '../operator.js';

/**
 * Creates a filter operator from a compiled predicate (compiled once per query). With `used`, the
 * columns nothing above reads (false) are not copied: they become all-NULL placeholders of Arrow type
 * Null (lowering passes `used` only when it knows every reader, planner/lower.ts).
 */
export function filterOperator(predicate: Predicate, used?: readonly boolean[]): Operator {
  return new FilterOperator(predicate, used);
}

/**
 * Classes, not object literals with methods: a literal's methods are closures made per operator
 * instance (per query), which V8 keeps optimized only through their shared feedback vector and
 * compiles again after some major GCs; a class's methods live as long as the module
 * (kernels/kernel-cache.ts).
 */
class FilterOperator implements Operator {
  private ctx!: OperatorContext;
  private scratch: Int32Array | null = null;

  constructor(private readonly predicate: Predicate, private readonly used: readonly boolean[] | undefined) {}

  open(c: OperatorContext): void { this.ctx = c; }

  processBatch(_input: number, batch: RecordBatch, epoch: number): void {
    let scratch = this.scratch;
    if (scratch === null || scratch.length < batch.numRows) {
      if (scratch !== null) giveArray(scratch);
      scratch = this.scratch = takeScratch(Int32Array, batch.numRows);
    }
    const sel = this.predicate(batch, scratch);
    const used = this.used;
    if (sel === null) this.ctx.emit(batch, epoch);
    else if (sel.length === 0) return;
    else if (used === undefined) this.ctx.emit(takeBatch(batch, sel), epoch);
    else {
      const m = sel.length;
      // packedMap: one elements kind in and out of optimized code (batchFromColumns deopted "wrong map" on a `.map` array).
      const cols = packedMap(batch.data.children, (c, i) => (used[i] === false ? nullColumn(m) : takeData(c, sel, m, false)));
      this.ctx.emit(batchFromColumns(batch.schema, cols, m), epoch);
    }
  }

  finish(): void {}

  close(): void {
    // The selection never leaves processBatch (a pass-through emits the batch, a take copies): no reader is left.
    if (this.scratch !== null) giveArray(this.scratch);
    this.scratch = null;
  }
}

/** Creates a FilterProject operator from a compiled Filter → Project stage; emits materialized batches only. */
export function filterProjectOperator(stage: Stage): Operator {
  return new FilterProjectOperator(stage);
}

class FilterProjectOperator implements Operator {
  private ctx!: OperatorContext;

  constructor(private readonly stage: Stage) {}

  open(c: OperatorContext): void { this.ctx = c; }

  processBatch(_input: number, batch: RecordBatch, epoch: number): void {
    const s = this.stage(batch);
    if (s !== null) this.ctx.emit(batchFromColumns(this.ctx.outputSchema, materialize(s), s.length), epoch);
  }

  finish(): void {}

  close(): void {}
}
