/**
 * Column bookkeeping for late materialization in lowering (lower.ts): which
 * columns a parent reads, the per-column masks the Filter and HashJoin
 * operators take (false: emit an all-NULL placeholder instead of copying),
 * their EXPLAIN text (`unused=[...]`), and which Filter → [Project] chain an
 * aggregate may fuse.
 */
import type * as rel from '../relnode/rel.js';
import type { RelNode } from '../relnode/rel.js';
import { rexInputs, type RexNode } from '../relnode/rex.js';
import { columnLabel } from '../relnode/display.js';
import type { Schema } from '../relnode/types.js';

/** The union of two column sets. */
export function union(a: ReadonlySet<number>, b: ReadonlySet<number>): Set<number> {
  return new Set([...a, ...b]);
}

/** The columns from..to-1. */
export function range(from: number, to: number): Set<number> {
  return new Set(Array.from({ length: to - from }, (_, i) => from + i));
}

/** The columns some expression reads. */
export function exprInputs(es: readonly RexNode[]): Set<number> {
  const s = new Set<number>();
  for (const e of es) rexInputs(e, s);
  return s;
}

/** Per column of `schema`: false when not in `used`; undefined when every column is used. */
export function usedMask(schema: { fields: readonly unknown[] }, used: ReadonlySet<number> | undefined): boolean[] | undefined {
  if (used === undefined) return undefined;
  const mask = schema.fields.map((_, i) => used.has(i));
  return mask.every((x) => x) ? undefined : mask;
}

/** EXPLAIN text naming the columns a mask drops (empty when none). */
export function unusedDetail(schema: Schema, mask: readonly boolean[] | undefined): string {
  if (mask === undefined) return '';
  return `, unused=[${schema.fields.flatMap((_, i) => (mask[i] ? [] : [columnLabel(i, schema)])).join(', ')}]`;
}

/** The Filter (and the Project above it) an aggregate may fuse, and the node below them. */
export function fusableInput(n: rel.Aggregate): { filter: rel.Filter; project?: rel.Project; below: RelNode } | undefined {
  const top = n.input;
  if (top.kind === 'Filter') return { filter: top, below: top.input };
  if (top.kind === 'Project' && top.input.kind === 'Filter') return { filter: top.input, project: top, below: top.input.input };
  return undefined;
}


/**
 * The node an aggregate reads its input columns from: below a Project that only renames its input's
 * columns (all of them, in order, same types: a cached entry read as `Project(l_shipmode, revenue)`
 * renaming `revenue` to the aggregate's argument name), the Project's input — an aggregate reads its
 * input by position, so the rename vertex would only copy each batch through the scheduler.
 */
export function aggregateReads(n: rel.Aggregate): RelNode {
  const top = n.input;
  if (top.kind !== 'Project') return top;
  const fields = top.input.schema.fields;
  if (top.exprs.length !== fields.length) return top;
  const renames = top.exprs.every((e, i) => e.kind === 'InputRef' && e.index === i && e.type === fields[i]!.type);
  return renames ? top.input : top;
}
