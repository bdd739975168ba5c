/** The iteration library (FLIP-176 as shipped in Flink ML): entry points, body types, config, helpers. */
export { Iterations, forEachRound } from './iterations.js';
export { ReplayableDataStreamList, type IterationBody, type IterationBodyResult } from './body.js';
export { OperatorLifeCycle, type IterationConfig } from './config.js';
export { TerminateOnMaxIter, TerminateOnMaxIterOrTol, ForwardInputsOfLastRound } from './lib/index.js';
export { CachedListState, type ListStateOptions } from './list-state.js';
