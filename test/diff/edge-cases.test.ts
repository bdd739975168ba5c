/**
 * Optimizer- and operator-oriented differential cases (see suites/edge-cases.ts).
 */
import { useHarness } from './harness.js';
import { edgeCaseSuite } from './suites/edge-cases.js';

edgeCaseSuite(useHarness());
