/**
 * One small instance of each hot per-query class, kept for the life of the module, so the class's
 * hidden classes (V8 maps) survive major garbage collections.
 *
 * Why (issue #10): V8 keeps an instance map only while some instance lives. A major GC that finds no
 * live instance of, say, KeyTable — between two queries, after the memory reducer's GCs in an idle
 * process, or mid-query once an operator's objects are dropped — frees its maps, and every optimized
 * function that checked them is deoptimized ("marking dependent code ... reason: weak objects" in
 * `--trace-deopt`): the next query runs those kernels unoptimized until TurboFan compiles them again.
 * With a major GC before each run, TPC-H Q3 at parallelism 1 deoptimized its nine hottest kernels
 * every run (hash probe and build loops, slot moves, parted-batch lookups, pair emission, the sum
 * state); after 12 s idle the next Q3 took ~188 ms against ~140 warm. An instance kept alive keeps
 * its maps (a 12-GC test: 5 deopts → 0). Only classes whose methods are the hot kernels are anchored:
 * each module registers its own instances (exec/map-anchors.test.ts checks that they keep the maps a
 * query's instances use).
 */
const anchors: unknown[] = [];

/** Keeps `instances` alive for the life of the process (see the header). */
export function anchorMaps(...instances: unknown[]): void {
  anchors.push(...instances);
}

/** The anchored instances (tests). */
export function anchoredInstances(): readonly unknown[] {
  return anchors;
}
