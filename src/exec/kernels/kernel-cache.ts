/**
 * A bounded, per-isolate cache of compiled code: generated loops (fused.ts `generate`) keyed by their
 * source text.
 *
 * Why cache the function object, not only the text: V8 keeps a function's optimized code alive
 * through the function itself; code reached only through a shared feedback vector (closures made
 * per query) is dropped by some major GCs and compiled again by TurboFan on a helper thread
 * (issue #10, bench/deopt-runs.ts: Q3's sort comparators were compiled again in 3 of the first 9
 * runs without a deopt). A generated loop kept here is compiled once per isolate and text.
 *
 * Why bounded: a long-running REPL compiles expressions without limit; the cache keeps the most
 * recently used `GENERATED_LOOP_CAPACITY` entries (lru-cache, as the SQL parser's cache). An evicted function stays valid
 * for whoever still holds it; the next query with that text compiles a new one.
 */
import { LRUCache } from 'lru-cache';

/** A generated loop: a `new Function` over its parameters. */
export type GeneratedLoop = (...args: unknown[]) => unknown;

/** The most generated loops an isolate keeps. */
export const GENERATED_LOOP_CAPACITY = 512;

/** The generated loops of this isolate by parameters and text (fused.ts `generate`). */
export const GENERATED_LOOPS = new LRUCache<string, GeneratedLoop>({ max: GENERATED_LOOP_CAPACITY });
