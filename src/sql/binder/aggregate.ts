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
import { aggRef, call, caseWhen, inputRef, literal, rexChildren, rexWithChildren, type RexNode } from '../../relnode/rex.js';
import { ValidationError } from '../../relnode/errors.js';
import type { SourceSpan } from '../../relnode/source-span.js';
import { schemaOf, type SqlType } from '../../relnode/types.js';
import { groupingSetsPlan } from './grouping-sets-plan.js';
import type { BoundRel } from './scope.js';

/** An aggregate call's arguments after the first, and its ORDER BY keys. */
export interface AggExtra {
  readonly args: readonly RexNode[];
  readonly order: readonly { readonly expr: RexNode; readonly desc: boolean; readonly nullsFirst: boolean }[];
  /** Where the call was written in SQL (AggCall.at); none from the Table API. */
  readonly at?: SourceSpan;
}

/** Collects aggregate calls and builds the Project → Aggregate pair. */
export class AggPlanner {
  private readonly pre: RexNode[];
  private readonly preNames: string[];
  private readonly keyCanon: string[];
  /** The aggregate calls met so far, in order. */
  readonly calls: rel.AggCall[] = [];

  /** GROUPING(...) calls met so far: the stand-in each binds to (canonical text) and the key ordinals it reads. */
  private readonly groupings: { readonly canon: string; readonly keys: readonly number[] }[] = [];

  /**
   * `sets`: ROLLUP / CUBE / GROUPING SETS as lists of key ordinals (grouping-sets.ts); undefined for a plain
   * GROUP BY. With sets, the Aggregate groups by one more key after `keys`, the set's ordinal.
   */
  constructor(private readonly input: BoundRel, readonly keys: readonly RexNode[], readonly keyNames: readonly string[], readonly sets?: readonly (readonly number[])[]) {
    this.pre = [...keys];
    this.preNames = [...keyNames];
    this.keyCanon = keys.map(canonicalRex);
  }

  /** The ordinal of a group key, or -1. */
  keyIndex(e: RexNode): number {
    return this.keyCanon.indexOf(canonicalRex(e));
  }

  /**
   * `GROUPING(k1, ..., kn)` over key ordinals: bit n-1-j is 1 where kj is not in the row's grouping set.
   * Without grouping sets every key is in the one set: 0. Otherwise a stand-in that `rewrite` turns into a
   * CASE over the set ordinal (it is never evaluated over the input).
   */
  grouping(keys: readonly number[]): RexNode {
    if (this.sets === undefined) return literal(0, 'BIGINT');
    const stand = call(GROUPING_OP, keys.map((k) => literal(k, 'INTEGER')), 'BIGINT');
    const canon = canonicalRex(stand);
    if (!this.groupings.some((g) => g.canon === canon)) this.groupings.push({ canon, keys });
    return stand;
  }

  /**
   * Registers an aggregate call (deduplicated) and returns its AggRef.
   * `extra`: the arguments after the first (corr's x, quantile's fraction)
   * and the ORDER BY keys of an ordered aggregate (string_agg).
   */
  readonly onAggregate = (fn: AggFn, arg: RexNode | undefined, distinct: boolean, _node?: unknown, extra?: AggExtra): RexNode => {
    const more = extra?.args ?? [];
    const order = extra?.order ?? [];
    for (const a of [...(arg ? [arg] : []), ...more, ...order.map((o) => o.expr)]) {
      if (containsGrouping(a)) throw new ValidationError('GROUPING(...) cannot be an argument of an aggregate');
    }
    const name = this.callName(fn, arg, distinct, more);
    const args = arg ? [arg, ...more, ...order.map((o) => o.expr)].map((a) => this.preIndex(a)) : [];
    const type = aggReturnType(fn, arg?.type, more.map((m) => m.type)) as SqlType;
    const dirs = order.map((o) => ({ desc: o.desc, nullsFirst: o.nullsFirst }));
    const sameOrder = (c: rel.AggCall): boolean => JSON.stringify(c.order ?? []) === JSON.stringify(dirs);
    let at = this.calls.findIndex((c) => c.fn === fn && c.distinct === distinct && c.args.length === args.length && c.args.every((a, i) => a === args[i]) && sameOrder(c));
    if (at < 0) {
      this.calls.push({ fn, args, distinct, type, name, ...(dirs.length > 0 ? { order: dirs } : {}), ...(extra?.at !== undefined ? { at: extra.at } : {}) });
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

  /**
   * Project (keys + arguments) → Aggregate. Output: the keys, then one column per call.
   * With grouping sets: the rows of every set in one layout — the keys (NULL where the set leaves
   * them out), the set's ordinal, then the calls — as grouping-sets-plan.ts builds them (the input
   * aggregated once at the finest grouping, each set from its groups). The ordinal keeps a NULL of
   * the data apart from a rolled-up key; an empty set is a global aggregate, so it answers one row
   * even for no input (as the standard and DuckDB).
   */
  build(): rel.RelNode {
    const names = this.preNames.map((n, i) => (this.preNames.indexOf(n) === i ? n : `${n}_${i}`));
    const pre = rel.project(this.input.plan, this.pre, names);
    if (this.sets === undefined) return rel.aggregate(pre, this.keys.map((_, i) => i), this.calls);
    return groupingSetsPlan(pre, this.sets, this.calls, { names, keyCount: this.keys.length, setColumn: GROUPING_SET_COLUMN, callNames: this.calls.map((_c, j) => `__agg${j}`) });
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
    const setColumn = this.sets === undefined ? 0 : 1;
    if (e.kind === 'AggRef') return inputRef(this.keys.length + setColumn + e.call, e.type, e.name);
    if (e.kind === 'Call' && e.op === GROUPING_OP) return this.groupingValue(e);
    if (e.kind === 'InputRef') return stray(e.index);
    const ch = rexChildren(e);
    return ch.length === 0 ? e : rexWithChildren(e, ch.map((c) => this.rewrite(c, stray)));
  }

  /** A GROUPING(...) stand-in over the Aggregate's output: CASE on the set ordinal column. */
  private groupingValue(stand: RexNode): RexNode {
    const g = this.groupings.find((x) => x.canon === canonicalRex(stand))!;
    const id = inputRef(this.keys.length, 'INTEGER', GROUPING_SET_COLUMN);
    const valueIn = (set: readonly number[]): number => g.keys.reduce((v, key) => (v << 1) | (set.includes(key) ? 0 : 1), 0);
    const whens = this.sets!.map((set, i) => ({ when: call('eq', [id, literal(i, 'INTEGER')], 'BOOLEAN'), then: literal(valueIn(set), 'BIGINT') }));
    return caseWhen(whens, literal(null, 'BIGINT'), 'BIGINT');
  }
}

/** The stand-in op of a GROUPING(...) call between binding and `rewrite` (no function of that name exists). */
const GROUPING_OP = '$grouping';
/** The name of the set-ordinal column of a grouping-sets aggregate (internal: never in a query's output). */
const GROUPING_SET_COLUMN = '__grouping_set';

function containsGrouping(e: RexNode): boolean {
  return (e.kind === 'Call' && e.op === GROUPING_OP) || rexChildren(e).some(containsGrouping);
}
