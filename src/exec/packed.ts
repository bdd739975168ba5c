/**
 * Small arrays (a batch's columns, a key list) built so that V8 always gives them the same map.
 *
 * Why not `Array.prototype.map` or a spread on the hot paths: V8's builtin `map` returns a PACKED array, but
 * once TurboFan optimizes the caller it inlines `map`, and the inlined version returns a HOLEY one (a spread
 * too). The same call site so hands its consumers arrays of one map while it runs in the interpreter and of
 * another once optimized, and back after each deopt; every consumer optimized for the first map deopts
 * ("wrong map") and is compiled again. TPC-H Q3 at parallelism 2 logged ~1 such deopt and 3–6 TurboFan
 * compiles per run in each isolate even after 12 warm-ups (bench/deopt-runs.ts), and the recompiles run on
 * V8's helper threads, which compete with the two busy threads on 2 cores. An array that starts empty and
 * grows by `push` is PACKED in the interpreter and in optimized code alike.
 */

/** `xs.map(f)`, always a PACKED array. */
export function packedMap<T, U>(xs: readonly T[], f: (x: T, i: number) => U): U[] {
  const out: U[] = [];
  for (let i = 0; i < xs.length; i++) out.push(f(xs[i]!, i));
  return out;
}

/** `[...a, ...b]`, always a PACKED array. */
export function packedConcat<T>(a: readonly T[], b: readonly T[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < a.length; i++) out.push(a[i]!);
  for (let i = 0; i < b.length; i++) out.push(b[i]!);
  return out;
}

/** A PACKED copy of `xs`. */
export function packedCopy<T>(xs: readonly T[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < xs.length; i++) out.push(xs[i]!);
  return out;
}
