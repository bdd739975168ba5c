/**
 * RelBuilder: a relation that grows while a clause is bound — attached
 * subqueries join their results on as internal columns, and `trimmed()`
 * projects the relation back to the columns it started with.
 */
import * as rel from '../../relnode/rel.js';
import { inputRef, type RexNode } from '../../relnode/rex.js';
import type { BoundRel, ScopeColumn } from './scope.js';

/** A relation under construction (see the file comment). */
export class RelBuilder {
  plan: rel.RelNode;
  cols: ScopeColumn[];
  /** The width the relation started with. */
  readonly baseWidth: number;

  constructor(r: BoundRel) {
    this.plan = r.plan;
    this.cols = [...r.cols];
    this.baseWidth = r.cols.length;
  }

  /** Current number of columns. */
  get width(): number {
    return this.cols.length;
  }

  /**
   * Joins `right` on (its columns become internal: never found by name);
   * `condition` is over this relation's columns followed by right's.
   * Returns the ordinal of right's first column.
   */
  join(right: rel.RelNode, type: rel.JoinType, condition: RexNode): number {
    const at = this.width;
    this.plan = rel.join(this.plan, right, type, condition);
    const fields = this.plan.schema.fields;
    this.cols = this.cols.map((c, i) => (fields[i]!.nullable === c.nullable ? c : { ...c, nullable: fields[i]!.nullable }));
    if (type !== 'semi' && type !== 'anti') {
      right.schema.fields.forEach((f, i) => this.cols.push({ name: `__subquery${at + i}`, type: f.type, nullable: fields[at + i]!.nullable, internal: true }));
    }
    return at;
  }

  /** Appends computed internal columns (over the current columns); returns the ordinal of the first. */
  addColumns(exprs: readonly RexNode[]): number {
    const at = this.width;
    const fields = this.plan.schema.fields;
    this.plan = rel.project(this.plan, [...fields.map((f, i) => inputRef(i, f.type, f.name)), ...exprs], [...fields.map((f) => f.name), ...exprs.map((_, i) => `__key${at + i}`)]);
    exprs.forEach((e, i) => this.cols.push({ name: `__key${at + i}`, type: e.type, nullable: true, internal: true }));
    return at;
  }

  /** Keeps the rows where `condition` (over the current columns) is TRUE. */
  filter(condition: RexNode): void {
    this.plan = rel.filter(this.plan, condition);
  }

  /** The relation as it is now. */
  toRel(): BoundRel {
    return { plan: this.plan, cols: this.cols };
  }

  /** The relation with only the columns it started with (a Project when columns were attached). */
  trimmed(): BoundRel {
    if (this.width === this.baseWidth) return this.toRel();
    const keep = this.cols.slice(0, this.baseWidth);
    const plan = rel.project(this.plan, keep.map((c, i) => inputRef(i, c.type, c.name)), keep.map((_, i) => this.plan.schema.fields[i]!.name));
    return { plan, cols: keep };
  }
}
