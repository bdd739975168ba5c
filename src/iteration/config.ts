/**
 * How an iteration runs its body's operators (Flink ML's IterationConfig).
 *
 * Decision: a plain options object with one field, as the contract
 * says; the lifecycle applies to every operator made while the body function
 * runs, except where `forEachRound` makes part of an all-round body per-round.
 */

/** The lifecycle of the operators of an iteration body. */
export const OperatorLifeCycle = {
  /** One instance per subtask for the whole iteration (the default): state lives across rounds. */
  ALL_ROUND: 'ALL_ROUND',
  /** One instance per subtask and round, created on the round's first record and closed when the round ends. */
  PER_ROUND: 'PER_ROUND',
} as const;

/** `OperatorLifeCycle.ALL_ROUND` or `OperatorLifeCycle.PER_ROUND`. */
export type OperatorLifeCycle = (typeof OperatorLifeCycle)[keyof typeof OperatorLifeCycle];

/** Options of `Iterations.iterateBoundedStreamsUntilTermination`. */
export interface IterationConfig {
  /** Default `OperatorLifeCycle.ALL_ROUND`. */
  readonly operatorLifeCycle?: OperatorLifeCycle;
}
