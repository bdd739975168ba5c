/**
 * Plans as data: an optimized RelNode tree to a JSON-safe value and back, so a worker thread can
 * lower and run the same plan (docs/multi-core.md; DESIGN.md "Beyond one machine": plans as data).
 *
 * Decision: the encoding mirrors the node and expression unions one to one (kinds, ordinals,
 * literals with BIGINTs as decimal strings), and decoding rebuilds every node through the
 * checking constructors, so a decoded plan has the same schemas, digest and structure as the
 * original. A Scan's source is not data: the encoder names each scanned table through
 * `tableKey` (which may refuse it) and the decoder asks `source` for the worker's handle. What
 * cannot be shipped — cache nodes, iterations, table functions (opaque JS), subqueries, a
 * correlated join — throws NotShippableError, and the caller runs the plan on its own thread.
 */
import * as rel from '../relnode/rel.js';
import type { RelNode, Scan, TableRef } from '../relnode/rel.js';
import { assertNever, type LiteralValue, type RexNode } from '../relnode/rex.js';
import type { SourceSpan } from '../relnode/source-span.js';
import { field, schemaOf, type Schema } from '../relnode/types.js';
import { NotShippableError } from '../exec/workers/wire.js';

export { NotShippableError };

/** A JSON-safe plan (the encoding of one RelNode tree). */
export type ShippedPlan = { readonly [k: string]: unknown };

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** A literal as JSON: BIGINTs as decimal strings, and the doubles JSON cannot write (NaN, ±Infinity, -0) by name. */
function lit(v: LiteralValue): Json {
  if (typeof v === 'bigint') return { big: v.toString() };
  if (typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0))) return { num: Object.is(v, -0) ? '-0' : String(v) };
  return v;
}

function unlit(v: Json): LiteralValue {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return v as LiteralValue;
  return v.big !== undefined ? BigInt(v.big as string) : Number(v.num as string);
}

function rexOut(e: RexNode): Json {
  switch (e.kind) {
    case 'InputRef': return { k: 'ref', i: e.index, t: e.type, ...(e.name !== undefined ? { n: e.name } : {}) };
    case 'Literal': return { k: 'lit', v: lit(e.value), t: e.type };
    case 'Call': return { k: 'call', op: e.op, a: e.args.map(rexOut), t: e.type, ...spanOut(e.at) };
    case 'Cast': return { k: 'cast', a: rexOut(e.arg), t: e.type, ...spanOut(e.at), ...(e.target !== undefined ? { tg: e.target } : {}) };
    case 'Case': return { k: 'case', w: e.whens.map((w) => [rexOut(w.when), rexOut(w.then)]), o: rexOut(e.otherwise), t: e.type, ...spanOut(e.at) };
    case 'OuterRef': case 'AggRef': case 'Subquery': throw new NotShippableError(`a ${e.kind} expression cannot be shipped`);
    default: return assertNever(e, 'RexNode');
  }
}

type JObj = { readonly [k: string]: Json };

/** An expression's SQL position travels with it, so a worker's runtime error quotes the query as one thread does (relnode/source-span.ts). */
const spanOut = (at: SourceSpan | undefined): { at?: Json } => (at === undefined ? {} : { at: { ...at } });
const spanIn = (o: JObj): { at?: SourceSpan } => (o.at === undefined ? {} : { at: o.at as unknown as SourceSpan });

function rexIn(j: Json): RexNode {
  const o = j as JObj;
  const t = o.t as RexNode['type'];
  switch (o.k) {
    case 'ref': return o.n !== undefined ? { kind: 'InputRef', index: o.i as number, type: t, name: o.n as string } : { kind: 'InputRef', index: o.i as number, type: t };
    case 'lit': return { kind: 'Literal', value: unlit(o.v!), type: t };
    case 'call': return { kind: 'Call', op: o.op as string, args: (o.a as Json[]).map(rexIn), type: t, ...spanIn(o) };
    case 'cast': return { kind: 'Cast', arg: rexIn(o.a!), type: t, ...spanIn(o), ...(typeof o.tg === 'string' ? { target: o.tg } : {}) };
    case 'case': return { kind: 'Case', whens: (o.w as Json[][]).map(([w, th]) => ({ when: rexIn(w!), then: rexIn(th!) })), otherwise: rexIn(o.o!), type: t, ...spanIn(o) };
    default: throw new Error(`internal error: unknown shipped expression ${String(o.k)}`);
  }
}

const schemaOut = (s: Schema): Json => s.fields.map((f) => ({ n: f.name, t: f.type, nl: f.nullable, ...(f.qualifier !== undefined ? { q: f.qualifier } : {}) }));
const schemaIn = (j: Json): Schema => schemaOf((j as JObj[]).map((f) => field(f.n as string, f.t as Schema['fields'][number]['type'], f.nl as boolean, f.q as string | undefined)));

/** Plain data copies (AggCall, SortKey, WindowCall: no functions, no bigints). */
const plain = <T>(x: T): Json => JSON.parse(JSON.stringify(x)) as Json;

/** Encodes a plan; `tableKey` names each scan's data for the receiver (and may throw NotShippableError). */
export function encodePlan(n: RelNode, tableKey: (s: Scan) => string): ShippedPlan {
  const go = (x: RelNode): JObj => {
    switch (x.kind) {
      case 'Scan': return {
        k: x.kind, key: tableKey(x), id: x.table.id, name: x.table.name, version: x.table.version, schema: schemaOut(x.table.schema),
        ...(x.projection ? { proj: [...x.projection] } : {}), ...(x.pushedFilters ? { pf: x.pushedFilters.map(rexOut) } : {}),
      };
      case 'Values': return { k: x.kind, rows: x.rows.map((r) => r.map(lit)), schema: schemaOut(x.schema) };
      case 'Filter': return { k: x.kind, in: go(x.input), c: rexOut(x.condition) };
      case 'Project': return { k: x.kind, in: go(x.input), e: x.exprs.map(rexOut), names: x.schema.fields.map((f) => f.name) };
      case 'Aggregate': return { k: x.kind, in: go(x.input), g: [...x.groupKeys], a: plain(x.aggCalls) };
      case 'Join': return { k: x.kind, l: go(x.left), r: go(x.right), jt: x.joinType, c: rexOut(x.condition) };
      case 'Sort': return { k: x.kind, in: go(x.input), keys: plain(x.keys), ...(x.fetch !== undefined ? { fetch: x.fetch } : {}), ...(x.offset ? { offset: x.offset } : {}) };
      case 'Limit': return { k: x.kind, in: go(x.input), fetch: x.fetch, offset: x.offset };
      case 'GroupLimit': return { k: x.kind, in: go(x.input), keys: [...x.keys], fetch: x.fetch, offset: x.offset };
      case 'Union': return { k: x.kind, ins: x.inputs.map(go), all: x.all };
      case 'SetOp': return { k: x.kind, op: x.op, l: go(x.left), r: go(x.right), all: x.all };
      case 'Distinct': return { k: x.kind, in: go(x.input) };
      case 'Window': return { k: x.kind, in: go(x.input), pk: [...x.partitionKeys], ok: plain(x.orderKeys), calls: plain(x.calls) };
      case 'CacheSource': case 'CacheSink': case 'Correlate': case 'Iterate': case 'FeedbackRef': case 'DataRef': case 'TableFunction':
        throw new NotShippableError(`a ${x.kind} node cannot be shipped to a worker`);
      default: return assertNever(x, 'RelNode');
    }
  };
  return go(n);
}

/** Decodes a plan; `source(key)` is the receiver's handle for a scanned table. */
export function decodePlan(p: ShippedPlan, source: (key: string) => object): RelNode {
  const go = (o: JObj): RelNode => {
    const input = (): RelNode => go(o.in as JObj);
    switch (o.k) {
      case 'Scan': {
        const table: TableRef = { id: o.id as string, name: o.name as string, version: o.version as number, schema: schemaIn(o.schema!), handle: source(o.key as string) };
        return rel.scan(table, o.proj as number[] | undefined, (o.pf as Json[] | undefined)?.map(rexIn));
      }
      case 'Values': return rel.values((o.rows as Json[][]).map((r) => r.map(unlit)), schemaIn(o.schema!));
      case 'Filter': return rel.filter(input(), rexIn(o.c!));
      case 'Project': return rel.project(input(), (o.e as Json[]).map(rexIn), o.names as string[]);
      case 'Aggregate': return rel.aggregate(input(), o.g as number[], o.a as unknown as rel.AggCall[]);
      case 'Join': return rel.join(go(o.l as JObj), go(o.r as JObj), o.jt as rel.JoinType, rexIn(o.c!));
      case 'Sort': return rel.sort(input(), o.keys as unknown as rel.SortKey[], o.fetch as number | undefined, o.offset as number | undefined);
      case 'Limit': return rel.limit(input(), o.fetch as number, o.offset as number);
      case 'GroupLimit': return rel.groupLimit(input(), o.keys as number[], o.fetch as number, o.offset as number);
      case 'Union': return rel.union((o.ins as JObj[]).map(go), o.all as boolean);
      case 'SetOp': return rel.setOp(o.op as 'intersect' | 'except', go(o.l as JObj), go(o.r as JObj), o.all as boolean);
      case 'Distinct': return rel.distinct(input());
      case 'Window': return rel.window(input(), o.pk as number[], o.ok as unknown as rel.SortKey[], o.calls as unknown as rel.WindowCall[]);
      default: throw new Error(`internal error: unknown shipped plan node ${String(o.k)}`);
    }
  };
  return go(p as JObj);
}
