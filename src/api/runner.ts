/**
 * What a Table needs from its environment to run: the environment
 * implements this, Tables only see the interface.
 */
import type { RecordBatch, Table as ArrowTable } from 'apache-arrow';
import type { RelNode } from '../relnode/rel.js';
import type { CacheOptions } from '../cache/storage.js';
import type { SqlCatalog } from '../sql/catalog.js';

/** Runs plans for Tables. */
export interface QueryRunner {
  collect(plan: RelNode, signal?: AbortSignal, onProgress?: (rowsRead: number) => void): Promise<ArrowTable>;
  stream(plan: RelNode, signal?: AbortSignal, onProgress?: (rowsRead: number) => void): AsyncIterable<RecordBatch>;
  explain(plan: RelNode): string;
  explainAnalyze(plan: RelNode, signal?: AbortSignal): Promise<string>;
  /** Marks a plan's result for caching (FLIP-36); runs nothing. */
  markCache(plan: RelNode, options?: CacheOptions): void;
  /** Drops a plan's cached result; settles when its storage is released. */
  invalidateCache(plan: RelNode): Promise<void>;
  /** The catalog and session settings SQL text in Table methods binds against. */
  readonly sqlCatalog: SqlCatalog;
}
