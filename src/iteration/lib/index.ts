/** The iteration library's helper operators (ITERATION-SEMANTICS.md "Helper functions"). */
export { TerminateOnMaxIter } from './terminate-on-max-iter.js';
export { TerminateOnMaxIterOrTol } from './terminate-on-max-iter-or-tol.js';
export { ForwardInputsOfLastRound } from './forward-inputs-of-last-round.js';
