/**
 * The function library's aggregates over any type: bool_and / bool_or,
 * arg_min / arg_max, mode, first / last / any_value; and the factory that
 * maps every library aggregate (LibraryAggFn) to its state, including the
 * exact moment aggregates (agg-stddev.ts, agg-covar.ts) and the collecting
 * ones (agg-collect.ts). Every state merges, so each runs at parallelism
 * > 1. As DuckDB: NULLs are skipped (arg_min/arg_max skip a row where either
 * value is NULL), no values gives NULL (0 for approx_count_distinct);
 * arg_min/arg_max and mode keep the first value met among ties.
 * approx_count_distinct is a HyperLogLog estimate (agg-approx-distinct.ts).
 */
import { Type, type Data } from 'apache-arrow';
import { InternalError } from '../../relnode/errors.js';
import type { AggCall } from '../../relnode/rel.js';
import type { LiteralValue } from '../../relnode/rex.js';
import type { SqlType } from '../../relnode/types.js';
import { OutputColumn } from '../kernels/rowwise.js';
import { readValue } from '../kernels/value-at.js';
import { growU8, isNullAt, type AggState } from './agg-arrays.js';
import { ApproxDistinctState } from './agg-approx-distinct.js';
import { compareValues, QuantileState, StringAggState } from './agg-collect.js';
import { CovarState } from './agg-covar.js';
import { StddevState } from './agg-stddev.js';
import { AnyStringState } from './agg-any-string.js';

/** bool_and / bool_or: per group 0 = no value yet, 1 = false so far, 2 = true so far. */
class BoolState implements AggState {
  private acc = new Uint8Array(16);
  constructor(private readonly and: boolean) {}
  resize(groups: number): void { this.acc = growU8(this.acc, groups); }
  private fold(g: number, v: boolean): void {
    const cur = this.acc[g]!;
    if (cur === 0) this.acc[g] = v ? 2 : 1;
    else if (this.and ? !v : v) this.acc[g] = v ? 2 : 1;
  }
  add(args: readonly Data[], gids: Int32Array, n: number): void {
    const d = args[0]!;
    if (d.typeId === Type.Null) return;
    const bits = d.values as Uint8Array;
    for (let i = 0; i < n; i++) {
      if (d.nullCount > 0 && isNullAt(d, i)) continue;
      const j = d.offset + i;
      this.fold(gids[i]!, ((bits[j >> 3]! >> (j & 7)) & 1) === 1);
    }
  }
  merge(other: AggState, map: Int32Array): void {
    const o = (other as BoolState).acc;
    for (let j = 0; j < map.length; j++) if (o[j] !== 0) this.fold(map[j]!, o[j] === 2);
  }
  value(start: number, end: number): Data {
    const out = new OutputColumn('BOOLEAN', end - start);
    for (let g = start; g < end; g++) out.push(this.acc[g] === 0 ? null : this.acc[g] === 2);
    return out.finish();
  }
}

/** arg_min / arg_max(x, by). */
class ArgExtremeState implements AggState {
  private by: LiteralValue[] = [];
  private x: LiteralValue[] = [];
  constructor(private readonly max: boolean, private readonly type: SqlType) {}
  resize(groups: number): void { while (this.by.length < groups) { this.by.push(null); this.x.push(null); } }
  private offer(g: number, x: LiteralValue, by: LiteralValue): void {
    const cur = this.by[g]!;
    if (cur === null || (this.max ? compareValues(by, cur) > 0 : compareValues(by, cur) < 0)) { this.by[g] = by; this.x[g] = x; }
  }
  add(args: readonly Data[], gids: Int32Array, n: number): void {
    for (let i = 0; i < n; i++) {
      const by = readValue(args[1]!, i);
      if (by === null) continue;
      const x = readValue(args[0]!, i);
      if (x !== null) this.offer(gids[i]!, x, by);
    }
  }
  merge(other: AggState, map: Int32Array): void {
    const o = other as ArgExtremeState;
    for (let j = 0; j < map.length; j++) if (o.by[j] !== null && o.by[j] !== undefined) this.offer(map[j]!, o.x[j]!, o.by[j]!);
  }
  value(start: number, end: number): Data {
    const out = new OutputColumn(this.type, end - start);
    for (let g = start; g < end; g++) out.push(this.x[g] ?? null);
    return out.finish();
  }
}

/** Per group a Map of value → count (insertion order = first met): mode. */
class ModeState implements AggState {
  private counts: (Map<LiteralValue, number> | undefined)[] = [];
  constructor(private readonly type: SqlType) {}
  resize(groups: number): void { if (this.counts.length < groups) this.counts.length = groups; }
  private bump(g: number, v: LiteralValue, by: number): void {
    const m = (this.counts[g] ??= new Map());
    m.set(v, (m.get(v) ?? 0) + by);
  }
  add(args: readonly Data[], gids: Int32Array, n: number): void {
    const d = args[0]!;
    for (let i = 0; i < n; i++) {
      const v = readValue(d, i);
      if (v !== null) this.bump(gids[i]!, typeof v === 'number' && Object.is(v, -0) ? 0 : v, 1);
    }
  }
  merge(other: AggState, map: Int32Array): void {
    const o = other as ModeState;
    for (let j = 0; j < map.length; j++) o.counts[j]?.forEach((c, v) => this.bump(map[j]!, v, c));
  }
  value(start: number, end: number): Data {
    const len = end - start;
    const out = new OutputColumn(this.type, len);
    for (let g = start; g < end; g++) {
      let best: LiteralValue = null, bestCount = 0;
      this.counts[g]?.forEach((c, v) => { if (c > bestCount) { best = v; bestCount = c; } });
      out.push(best);
    }
    return out.finish();
  }
}

/** first / last (the first or last value met, NULL included) and any_value (the first non-NULL value). */
class PickState implements AggState {
  private seen = new Uint8Array(16);
  private x: LiteralValue[] = [];
  constructor(private readonly last: boolean, private readonly skipNulls: boolean, private readonly type: SqlType) {}
  resize(groups: number): void { this.seen = growU8(this.seen, groups); while (this.x.length < groups) this.x.push(null); }
  private offer(g: number, v: LiteralValue): void {
    if (v === null && this.skipNulls) return;
    if (this.seen[g] === 1 && !this.last) return;
    this.seen[g] = 1;
    this.x[g] = v;
  }
  add(args: readonly Data[], gids: Int32Array, n: number): void {
    for (let i = 0; i < n; i++) this.offer(gids[i]!, readValue(args[0]!, i));
  }
  merge(other: AggState, map: Int32Array): void {
    const o = other as PickState;
    for (let j = 0; j < map.length; j++) if (o.seen[j] === 1) this.offer(map[j]!, o.x[j]!);
  }
  value(start: number, end: number): Data {
    const out = new OutputColumn(this.type, end - start);
    for (let g = start; g < end; g++) out.push(this.x[g] ?? null);
    return out.finish();
  }
}

/** The state of a library aggregate call; `argTypes` are its argument column types. */
export function createLibraryAggState(call: AggCall, argTypes: readonly SqlType[]): AggState {
  const argType = argTypes[0] ?? 'NULL';
  switch (call.fn) {
    case 'stddev_pop': case 'var_samp': case 'var_pop': return new StddevState(call.fn);
    case 'covar_pop': case 'covar_samp': case 'corr': return new CovarState(call.fn);
    case 'bool_and': case 'bool_or': return new BoolState(call.fn === 'bool_and');
    case 'arg_min': case 'arg_max': return new ArgExtremeState(call.fn === 'arg_max', call.type);
    case 'mode': return new ModeState(call.type);
    case 'approx_count_distinct': return new ApproxDistinctState();
    case 'median': case 'quantile_cont': case 'quantile_disc': return new QuantileState(call, argType);
    case 'string_agg': return new StringAggState(call);
    case 'first': case 'last': return new PickState(call.fn === 'last', false, call.type);
    case 'any_value': return call.type === 'VARCHAR' ? new AnyStringState() : new PickState(false, true, call.type);
    default: throw new InternalError(`unknown aggregate function ${String(call.fn)}`);
  }
}
