/**
 * Generated graphs for the graph-iteration tests (WITH RECURSIVE, env.iterate) that compare
 * eddy with DuckDB: seeded, so every run sees the same edges.
 */
import type { TableEnvironment } from '../../src/index.js';
import { loadRows, type Duck } from './duckdb.js';
import { rng } from './rng.js';

/** A directed edge. */
export type Edge = { readonly src: number; readonly dst: number };

/** Many small components: `n` nodes cut into clusters of `size`, `m` distinct random edges inside clusters, no self loops. */
export function clusteredGraph(n: number, size: number, m: number, seed: number): Edge[] {
  const r = rng(seed);
  const seen = new Set<number>();
  const out: Edge[] = [];
  while (out.length < m) {
    const base = Math.floor(r() * (n / size)) * size;
    const src = base + Math.floor(r() * size);
    const dst = base + Math.floor(r() * size);
    if (src === dst || seen.has(src * n + dst)) continue;
    seen.add(src * n + dst);
    out.push({ src, dst });
  }
  return out;
}

/** Every edge in both directions (for undirected algorithms: connected components). */
/** An undirected path 0 – 1 – … – n−1. */
export function chainGraph(n: number): Edge[] {
  return undirected(Array.from({ length: n - 1 }, (_, i) => ({ src: i, dst: i + 1 })));
}

/** `m` random directed edges over nodes 0..n−1, self loops and duplicates included. */
export function randomEdges(n: number, m: number, seed: number): Edge[] {
  const r = rng(seed);
  return Array.from({ length: m }, () => ({ src: Math.floor(r() * n), dst: Math.floor(r() * n) }));
}

export function undirected(es: readonly Edge[]): Edge[] {
  return es.flatMap((e) => [e, { src: e.dst, dst: e.src }]);
}

/** Registers `edges` as table `name` (src, dst INTEGER) in every environment of `envs` and in DuckDB. */
export async function registerEdges(name: string, edges: readonly Edge[], envs: readonly TableEnvironment[], duck: Duck): Promise<void> {
  for (const env of envs) env.registerTable(name, env.fromRecords([...edges], EDGE_TYPES));
  await loadRows(duck, name, EDGE_TYPES, edges);
}

const EDGE_TYPES = { src: 'INTEGER', dst: 'INTEGER' } as const;
