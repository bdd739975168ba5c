import { mulberry32 } from '../../src/exec/random.js';

/** A small deterministic PRNG (mulberry32) for tests: `rng(seed)()` is a float in [0, 1). */
export const rng = mulberry32;
