/**
 * The cache's plan nodes (FLIP-36): CacheSource reads a committed entry in
 * place of the subtree it replaced (kept as `original`, for the lost-partition
 * fallback, C14); CacheSink tees a subtree's batches into a pending entry.
 */
import type { RelNode } from './rel.js';
import type { RexNode } from './rex.js';
import { schemaOf, type Schema } from './types.js';

/** Reads a materialized cache entry (set by cache substitution). `original` is the subtree it replaced. */
export interface CacheSource {
  readonly kind: 'CacheSource';
  readonly entryId: string;
  readonly original: RelNode;
  readonly projection?: readonly number[];
  readonly pushedFilters?: readonly RexNode[];
  readonly schema: Schema;
}

/** Tees its input's batches into a cache entry while passing them through. */
export interface CacheSink {
  readonly kind: 'CacheSink';
  readonly input: RelNode;
  readonly entryId: string;
  readonly schema: Schema;
}

export function cacheSource(entryId: string, original: RelNode, projection?: readonly number[], pushedFilters?: readonly RexNode[]): CacheSource {
  const all = original.schema.fields;
  const schema = projection ? schemaOf(projection.map((i) => all[i]!)) : original.schema;
  const node: CacheSource = { kind: 'CacheSource', entryId, original, schema };
  return { ...node, ...(projection ? { projection } : {}), ...(pushedFilters && pushedFilters.length > 0 ? { pushedFilters } : {}) };
}

export function cacheSink(input: RelNode, entryId: string): CacheSink {
  return { kind: 'CacheSink', input, entryId, schema: input.schema };
}
