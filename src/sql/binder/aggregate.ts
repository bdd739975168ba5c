/**
 * The one aggregate planner, for SQL GROUP BY and the Table API's
 * groupBy().select() (src/api/aggregate.ts calls it):
 * Project (keys, then aggregate arguments) → Aggregate → expressions over its
 * output. Clauses bind over the input with each aggregate call standing as a
 * binder-only AggRef (relnode/rex.ts) — a kind of its own, so no ordinal can
 * be mistaken for one; `rewrite` then maps group-key expressions to key
 * columns and AggRefs to aggregate columns, and rejects any other column (it
 * is neither grouped nor aggregated).
 */
import { canonicalRex } from '../../relnode/digest.js';
import { formatRex } from '../../relnode/explain.js';
import { aggReturnType, type AggFn } from '../../relnode/functions.js';
import * as rel from '../../relnode/rel.js';
import { aggRef, inputRef, rexChildren, rexWithChildren, type RexNode } from '../../relnode/rex.js';
import { schemaOf, type SqlType } from '../../relnode/types.js';
import type { BoundRel } from './scope.js';

/** An aggregate call's arguments after the first, and its ORDER BY keys. */
export interface AggExtra {
  readonly args: readonly RexNode[];
  readonly order: readonly { readonly expr: RexNode; readonly desc: boolean; readonly nullsFirst: boolean }[];
}

/** Collects aggregate calls and builds the Project → Aggregate pair. */
export class AggPlanner {
  private readonly pre: RexNode[];
  private readonly preNames: string[];
  private readonly keyCanon: string[];
  /** The aggregate calls met so far, in order. */
  readonly calls: rel.AggCall[] = [];

  constructor(private readonly input: BoundRel, readonly keys: readonly RexNode[], readonly keyNames: readonly string[]) {
    this.pre = [...keys];
    this.preNames = [...keyNames];
    this.keyCanon = keys.map(canonicalRex);
  }

  /**
   * Registers an aggregate call (deduplicated) and returns its AggRef.
   * `extra`: the arguments after the first (corr's x, quantile's fraction)
   * and the ORDER BY keys of an ordered aggregate (string_agg).
   */
  readonly onAggregate = (fn: AggFn, arg: RexNode | undefined, distinct: boolean, _node?: unknown, extra?: AggExtra): RexNode => {
    const more = extra?.args ?? [];
    const order = extra?.order ?? [];
    const name = this.callName(fn, arg, distinct, more);
    const args = arg ? [arg, ...more, ...order.map((o) => o.expr)].map((a) => this.preIndex(a)) : [];
    const type = aggReturnType(fn, arg?.type, more.map((m) => m.type)) as SqlType;
    const dirs = order.map((o) => ({ desc: o.desc, nullsFirst: o.nullsFirst }));
    const sameOrder = (c: rel.AggCall): boolean => JSON.stringify(c.order ?? []) === JSON.stringify(dirs);
    let at = this.calls.findIndex((c) => c.fn === fn && c.distinct === distinct && c.args.length === args.length && c.args.every((a, i) => a === args[i]) && sameOrder(c));
    if (at < 0) {
      this.calls.push({ fn, args, distinct, type, name, ...(dirs.length > 0 ? { order: dirs } : {}) });
      at = this.calls.length - 1;
    }
    return aggRef(at, type, this.calls[at]!.name);
  };

  private preIndex(e: RexNode): number {
    const c = canonicalRex(e);
    const at = this.pre.findIndex((p) => canonicalRex(p) === c);
    if (at >= 0) return at;
    this.pre.push(e);
    this.preNames.push(`__arg${this.pre.length - 1}`);
    return this.pre.length - 1;
  }

  /** The Table API's name of an aggregate call: `sum(l_quantity)`, `count_star()`. */
  private callName(fn: AggFn, arg: RexNode | undefined, distinct: boolean, more: readonly RexNode[] = []): string {
    if (fn === 'count_star' || !arg) return 'count_star()';
    const show = (e: RexNode): string => (e.kind === 'InputRef' ? this.input.cols[e.index]!.name : formatRex(e, schemaOf(this.input.cols)));
    return `${fn}(${distinct ? 'DISTINCT ' : ''}${[arg, ...more].map(show).join(', ')})`;
  }

  /** Project (keys + arguments) → Aggregate. Output: the keys, then one column per call. */
  build(): rel.Aggregate {
    const names = this.preNames.map((n, i) => (this.preNames.indexOf(n) === i ? n : `${n}_${i}`));
    const pre = rel.project(this.input.plan, this.pre, names);
    return rel.aggregate(pre, this.keys.map((_, i) => i), this.calls);
  }

  /**
   * An expression bound over the input (with AggRefs), rewritten over the
   * Aggregate's output. `stray` is called for a column that is neither a key
   * nor inside an aggregate (it throws). Outer references and a subquery's
   * plan pass through unchanged (a subquery reads the keys, which lead the output).
   */
  rewrite(e: RexNode, stray: (inputIndex: number) => never): RexNode {
    const k = this.keyCanon.indexOf(canonicalRex(e));
    if (k >= 0) return inputRef(k, e.type, this.keyNames[k]);
    if (e.kind === 'AggRef') return inputRef(this.keys.length + e.call, e.type, e.name);
    if (e.kind === 'InputRef') return stray(e.index);
    const ch = rexChildren(e);
    return ch.length === 0 ? e : rexWithChildren(e, ch.map((c) => this.rewrite(c, stray)));
  }
}
