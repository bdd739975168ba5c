/**
 * The innermost loop of a fused body pipeline (pipeline.ts) for its common
 * graph shape: the last static join, at most one keyed-table lookup after
 * it, comparisons, and a GROUP BY of one key — one pass over the matching
 * (row, edge) pairs, without tuple vectors: per pair, look the key up,
 * compare, find the group, update min / max / count. This is the loop a
 * hand-written label propagation runs, plus the lookups the SQL asks for.
 *
 * Decision: the loop is generated as JavaScript text for the pipeline's
 * shape (where each value comes from, which comparisons, which aggregates)
 * and compiled once per shape (exec/kernels/fused.ts `generate`, the same
 * mechanism as fused expressions): every read is a direct typed-array
 * access, so V8 runs it at the speed of the hand-written loop (an
 * interpreting loop over value descriptors measured 3–4× slower). The text
 * is built only from this file's fragments and small integers, never from
 * user input. Values are int32 with validity asked separately; a comparison
 * with NULL fails and min / max / count skip NULL. Values come from the
 * pair's spine tuple (`t`: read once per tuple), the static side's sorted
 * column (`b`: NULL-free, checked before this loop is chosen) or the keyed
 * table's mirror (`s`).
 */
import { generate } from '../../exec/kernels/fused.js';
import type { Cmp, CmpOp, PipelineSpec, PipelineStep, Ref } from './pipeline-spec.js';
import type { RoundGroups } from './pipeline-groups.js';
import type { StaticIndex } from './static-index.js';
import type { KeyedStore, StoreIntColumn } from './keyed-store.js';

/** Where one value of a pair comes from: 0 the spine tuple, 1 the static side's row, 2 the keyed table's row. */
export type PairValue =
  | { readonly kind: 0; readonly t: Int32Array; readonly tok: Uint8Array }
  | { readonly kind: 1; readonly b: Int32Array }
  | { readonly kind: 2; readonly s: StoreIntColumn; readonly byKey: () => Float64Array };

export interface FusedPairs {
  readonly m: number;
  /** The join key of each tuple (and whether it is non-NULL). */
  readonly keys: Int32Array;
  readonly ok: Uint8Array;
  readonly index: StaticIndex;
  /** The keyed-table lookup after the join (its key value), if any. */
  readonly store: KeyedStore | null;
  readonly storeKey: PairValue | null;
  readonly cmps: readonly { readonly op: CmpOp; readonly a: PairValue; readonly b: PairValue | null; readonly value: number }[];
  readonly group: PairValue;
  readonly aggs: readonly { readonly fn: 'min' | 'max' | 'count' | 'count_star'; readonly arg: PairValue | null }[];
  readonly groups: RoundGroups;
  /** Skip a pair whose value of min aggregate `agg` is not below `view` at its group key (pipeline.ts PruneSpec; NaN: never). */
  readonly prune: {
    readonly view: Float64Array; readonly agg: number;
    /** The tuple's key and label when the loop may take the key's least label so far instead (currentLabel). */
    readonly current: { readonly key: PairValue; readonly label: PairValue } | null;
  } | null;
}

const OPS: Readonly<Record<CmpOp, string>> = { eq: '===', ne: '!==', lt: '<', le: '<=', gt: '>', ge: '>=' };

type PairLoop = (m: number, keys: Int32Array, ok: Uint8Array, index: StaticIndex, store: KeyedStore | null, groups: RoundGroups, V: readonly (Int32Array | Uint8Array | Float64Array)[], C: readonly number[]) => void;

/** Adds every matching pair of the tuples to the round's groups. */
export function aggregatePairs(f: FusedPairs): void {
  const arrays: (Int32Array | Uint8Array | Float64Array)[] = [];
  const consts: number[] = [];
  /** Statements run once per tuple, before its pairs (reads of the tuple's own values). */
  const perTuple: string[] = [];
  const memo = new Map<unknown, { get: string; ok: string; tupleOnly: boolean }>();
  const slot = (a: Int32Array | Uint8Array | Float64Array): number => { arrays.push(a); return arrays.length - 1; };
  // The keyed table read by key (KeyedStore.byKey: NaN = no row or NULL) when its columns only feed comparisons
  // other than <> (a comparison with NaN fails, as the missing join row or the NULL would): one read per pair.
  const storeCols = f.store === null ? [] : [...f.cmps.flatMap((c) => [c.a, c.b]), f.group, ...f.aggs.map((x) => x.arg)].filter((p): p is PairValue => p !== null && p.kind === 2);
  const byKey = f.store !== null && storeCols.length > 0 && f.cmps.every((c) => c.op !== 'ne' || (c.a.kind !== 2 && c.b?.kind !== 2)) &&
    f.group.kind !== 2 && f.aggs.every((x) => x.arg === null || x.arg.kind !== 2);
  /** By-key mode: per store column, the local holding its value for the pair, and the statements that fill it. */
  const fills: string[] = [];
  // Each value: its read and validity expressions; a tuple's values are read once per tuple into locals,
  // a static column has no NULLs (checked before this loop is chosen), a store column none while it never held one.
  const val = (p: PairValue): { get: string; ok: string; tupleOnly: boolean } => {
    const id = p.kind === 0 ? p.t : p.kind === 1 ? p.b : p.s;
    const seen = memo.get(id);
    if (seen !== undefined) return seen;
    let r: { get: string; ok: string; tupleOnly: boolean };
    if (p.kind === 0) {
      const k = slot(p.t);
      const o = slot(p.tok);
      perTuple.push(`let t${k} = v${k}[i]; const t${k}ok = v${o}[i] === 1;`);
      r = { get: `t${k}`, ok: `t${k}ok`, tupleOnly: true };
    } else if (p.kind === 1) r = { get: `v${slot(p.b)}[e]`, ok: 'true', tupleOnly: false };
    else if (byKey) {
      const bk = slot(p.byKey());
      const k = slot(p.s.values);
      const o = slot(p.s.valid);
      fills.push(`y${bk} = inDirect ? v${bk}[sk] : v${o}[sg] === 1 ? v${k}[sg] : NaN;`);
      r = { get: `y${bk}`, ok: 'true', tupleOnly: false };
    } else {
      const k = slot(p.s.values);
      r = { get: `v${k}[sg]`, ok: p.s.nulls ? `v${slot(p.s.valid)}[sg] === 1` : 'true', tupleOnly: false };
    }
    memo.set(id, r);
    return r;
  };
  const pre: string[] = [];
  const lines: string[] = [];
  if (f.store !== null) {
    const k = val(f.storeKey!);
    // The keyed table's direct-mapped ids inline (sd); keys outside it through findInt.
    if (k.ok !== 'true') (k.tupleOnly ? pre : lines).push(`if (!(${k.ok})) continue;`);
    if (byKey) {
      // Keys in the direct range read the by-key view; others go through findInt (a miss: no row, skip).
      for (const p of storeCols) val(p);
      lines.push(`const sk = ${k.get};`, 'const inDirect = sk >= 0 && sk < sd.length;', 'let sg = -1;',
        'if (!inDirect) { if (!sh) continue; sg = store.findInt(sk); if (sg < 0) continue; }',
        `let ${fills.map((x) => x.slice(0, x.indexOf(' ='))).join(', ')};`, ...fills);
    } else lines.push(`const sk = ${k.get};`, 'let sg = sk >= 0 && sk < sd.length ? sd[sk] - 1 : -1;', 'if (sg < 0) { if (!sh) continue; sg = store.findInt(sk); if (sg < 0) continue; }');
  } else lines.push('const sg = -1;');
  for (const c of f.cmps) {
    const a = val(c.a);
    let b: { get: string; ok: string; tupleOnly: boolean };
    if (c.b !== null) b = val(c.b);
    else { consts.push(c.value); b = { get: `C[${consts.length - 1}]`, ok: 'true', tupleOnly: true }; }
    // A comparison of the tuple's values alone is decided once per tuple.
    // A NULL fails the comparison: a tuple's NULL fails all its pairs.
    for (const v of [a, b]) if (v.ok !== 'true') (v.tupleOnly ? pre : lines).push(`if (!(${v.ok})) continue;`);
    (a.tupleOnly && b.tupleOnly ? pre : lines).push(`if (!(${a.get} ${OPS[c.op]} ${b.get})) continue;`);
  }
  const g = val(f.group);
  if (f.prune !== null) {
    const x = val(f.aggs[f.prune.agg]!.arg!);
    const pv = slot(f.prune.view);
    // In-place updates: the view is lowered to the round's group minimum as it goes (the store gets exactly
    // those values at the round's end), so later pairs prune against it, and — when the tuple is a row of the
    // variable itself — a tuple whose key went down earlier this round passes its lower label on at once.
    lines.push(`if (${g.ok} && ${x.ok}) { const pk = ${g.get}; if (pk >= 0 && pk < v${pv}.length) { if (${x.get} >= v${pv}[pk]) continue; v${pv}[pk] = ${x.get}; } }`);
    const cur = f.prune.current;
    if (cur !== null) {
      const lk = val(cur.label);
      const nk = val(cur.key);
      if (lk.tupleOnly && nk.tupleOnly && lk.get.startsWith('t')) {
        pre.push(`if (${nk.ok} && ${lk.ok}) { const ck = ${nk.get}; if (ck >= 0 && ck < v${pv}.length) { const cl = v${pv}[ck]; if (cl < ${lk.get}) ${lk.get} = cl; } }`);
      }
    }
  }
  // Direct-mapped groups inline (gf: flags, gb: base); other keys and NULL through gid1, which may grow the
  // state arrays (their locals are read again after it).
  const isCount = (fn: string): boolean => fn === 'count' || fn === 'count_star';
  const reload = f.aggs.map((agg, a) => (isCount(agg.fn) ? `c${a} = groups.counts[${a}];` : `h${a} = groups.has[${a}]; s${a} = groups.vals[${a}];`)).join(' ');
  const declare = f.aggs.map((agg, a) => (isCount(agg.fn) ? `let c${a} = groups.counts[${a}];` : `let h${a} = groups.has[${a}]; let s${a} = groups.vals[${a}];`)).join(' ');
  lines.push(`let id;`, `if (${g.ok}) { const gk = ${g.get}; const gs = gk - gb; if (gf !== null && gs >= 0 && gs < gf.length) { if (gf[gs] === 0) groups.touch(gs); id = gs; } else { id = groups.gid1(gk, 0); ${reload} } } else { id = groups.gid1(0, 1); ${reload} }`);
  f.aggs.forEach((agg, a) => {
    if (agg.fn === 'count_star') { lines.push(`c${a}[id]++;`); return; }
    const x = val(agg.arg!);
    const guard = x.ok === 'true' ? '' : `if (${x.ok}) `;
    if (agg.fn === 'count') { lines.push(`${guard}c${a}[id]++;`); return; }
    const cmp = agg.fn === 'min' ? '<' : '>';
    // A new group's value starts at the type's extreme (pipeline-groups.ts), so the common pair reads only the
    // value; `has` is read when the value equals it (the extreme itself may be the first value).
    lines.push(`${guard}{ const x = ${x.get}; const y = s${a}[id]; if (x ${cmp} y) { s${a}[id] = x; h${a}[id] = 1; } else if (x === y && h${a}[id] === 0) h${a}[id] = 1; }`);
  });
  const hoist = arrays.map((_, k) => `const v${k} = V[${k}];`).join(' ');
  const body = `${hoist}
${declare}
const start = index.start;
const sd = store !== null ? store.intKeys.directIds : null;
const sh = store !== null && store.intKeys.hashed;
const gf = groups.directFlags;
const gb = groups.directBase;
for (let i = 0; i < m; i++) {
  if (ok[i] === 0) continue;
  const gr = index.group(keys[i]);
  if (gr < 0) continue;
  ${perTuple.join('\n  ')}
  ${pre.join('\n  ')}
  const end = start[gr + 1];
  for (let e = start[gr]; e < end; e++) {
    ${lines.join('\n    ')}
  }
}`;
  const loop = generate<PairLoop>('m,keys,ok,index,store,groups,V,C', body);
  loop(f.m, f.keys, f.ok, f.index, f.store, f.groups, arrays, consts);
}

/**
 * The step from which a pipeline can run as one pass over pairs: its last static join, when at most
 * one keyed-table lookup follows it and the pipeline ends in a GROUP BY of one key (−1: never).
 */
export function fusedStep(spec: PipelineSpec): number {
  if (spec.terminal.kind !== 'agg' || spec.terminal.groups.length !== 1) return -1;
  let L = -1;
  spec.steps.forEach((s, j) => { if (s.kind === 'static') L = j; });
  if (L < 0) return -1;
  const after = spec.steps.slice(L + 1);
  if (after.length > 1 || after.some((s) => s.kind !== 'store')) return -1;
  // The lookup's key must come from before it (it always does: refs only point back).
  return L;
}

/** Every column the steps from L on and the terminal read. */
export function refsOf(spec: PipelineSpec, L: number): Ref[] {
  const out: Ref[] = [];
  spec.steps.forEach((s, j) => {
    if (j < L) return;
    if (j > L) out.push(s.probe);
    for (const c of s.residual) { out.push(c.a); if (!('value' in c.b)) out.push(c.b); }
  });
  const term = spec.terminal;
  if (term.kind === 'agg') { out.push(...term.groups); for (const a of term.aggs) if (a.arg !== undefined) out.push(a.arg); }
  return out;
}

/**
 * A keep-min pipeline (PruneSpec) over the variable's own working rows whose min aggregate reads the row's label
 * and nothing else does: the row's key and label values, so the pair loop can take the key's least label so far
 * this round instead of the row's (null: not applicable).
 */
export function currentLabel(spec: PipelineSpec, value: (r: Ref) => PairValue): { readonly key: PairValue; readonly label: PairValue } | null {
  const term = spec.terminal;
  if (term.kind !== 'agg' || term.prune === undefined) return null;
  const p = term.prune;
  const arg = term.aggs[p.agg]?.arg;
  if (p.spineIsVariable !== true || p.keys.length !== 1 || arg === undefined || arg.src !== 0 || arg.col !== p.column) return null;
  // The label feeds only the min aggregate (the min-label rewrite guarantees it; checked again here) and the USING
  // KEY keep-min guard `label < r.label` with `r` the keyed table's row at the group key (recursive-keymin.ts): the
  // guard is the pruning comparison itself.
  const reads = (r: Ref): boolean => r.src === 0 && r.col === p.column;
  const group = term.groups[0]!;
  const guard = (st: PipelineStep, c: Cmp): boolean => {
    if (st.kind !== 'store' || st.variable !== p.variable || st.probe.src !== group.src || st.probe.col !== group.col || 'value' in c.b) return false;
    const [lo, hi] = c.op === 'lt' ? [c.a, c.b] : c.op === 'gt' ? [c.b, c.a] : [null, null];
    const at = spec.steps.indexOf(st) + 1;
    return lo !== null && hi !== null && reads(lo) && hi.src === at && hi.col === p.column;
  };
  if (spec.steps.some((st) => reads(st.probe) || st.residual.some((c) => !guard(st, c) && (reads(c.a) || (!('value' in c.b) && reads(c.b)))))) return null;
  if (term.groups.some(reads) || term.aggs.some((a, i) => i !== p.agg && a.arg !== undefined && reads(a.arg))) return null;
  return { key: value({ src: 0, col: p.keys[0]! }), label: value(arg) };
}
