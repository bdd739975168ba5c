/**
 * The forwarding operator: every batch of every input goes out unchanged,
 * with its epoch. Used for `union` and for reading a side output as a job's
 * result. Stateless, so it takes part in checkpoints with no state.
 */
import type { Operator, OperatorContext, OperatorFactory } from '../../exec/operator.js';

export const forwardOperator: OperatorFactory = (): Operator => {
  let ctx!: OperatorContext;
  return {
    open(c) { ctx = c; },
    processBatch(_i, b) { ctx.emit(b); },
    finish() {},
    close() {},
    snapshotState: () => undefined,
    restoreState: () => {},
  };
};
