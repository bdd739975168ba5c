/**
 * What a Table needs from its environment to run: the environment
 * implements this, Tables only see the interface.
 */
import type { RecordBatch, Table as ArrowTable } from 'apache-arrow';
import type { RelNode } from '../relnode/rel.js';

/** Runs plans for Tables. */
export interface QueryRunner {
  collect(plan: RelNode, signal?: AbortSignal): Promise<ArrowTable>;
  stream(plan: RelNode, signal?: AbortSignal): AsyncIterable<RecordBatch>;
  explain(plan: RelNode): string;
  explainAnalyze(plan: RelNode): Promise<string>;
}
