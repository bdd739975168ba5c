/**
 * The generated no-NULL loops of FusedAggregates (agg-fused.ts): per row one
 * compensated step per summed column, then count(*), into the
 * interleaved per-group state (stride S, each summed slot's sum at `o` and its
 * compensation at `o + 1`). Generated per member shape (fused.ts `generate`,
 * cached by source text; the text contains only numbers, never user input).
 *
 * Decision: the step computes the rounding error of `s + x` by Knuth's
 * branch-free TwoSum, not by Neumaier's `|s| ≥ |x|` test (agg-states.ts
 * SumDoubleState, FusedAggregates' masked loop and merge). Both compute the
 * exact error of a finite sum, which is unique (and never -0 in either), so
 * every compensation has the same bits; once `s + x` is not finite the sum
 * stays non-finite and `value` ignores the compensation. TwoSum is six flops
 * without the two `Math.abs` and the compare: TPC-H Q1's loop over SF 1
 * lineitem 139 → 125 ms CPU (plain sums: 97 ms), load ~12.
 *
 * Two row sources:
 * - `sumLoop`: group ids per row (`gids[j]`), from KeyTable.groupIds;
 * - `codedLoop`: the keys read in place (KeyTable.keyRows): `map[codes[r]]`
 *   for one dictionary key, `map[(a[ao + r] << 8) | b[bo + r]]` for two
 *   one-byte keys (TPC-H Q1's flags), `map[a[ao + r]]` for one. No group-id
 *   array is written and read again, and no second loop runs over the rows
 *   (the cached FLIP-36 group-by by l_shipmode spent as long in KeyTable's
 *   code → gid loop as in the sums; Q1's byte-pair loop was ~20% of its
 *   profile). A key not resolved yet (negative) stops the loop at that row;
 *   the caller resolves it (the next gid, so groups keep their first-seen
 *   order) and resumes there;
 * - `perCodeLoop`: per-code states (every dictionary code has its own group,
 *   KeyRows.perm): row r's state is at `S * codes[r]`, no map read — the
 *   dependent load delays each row's state address (cached FLIP-36 group-by:
 *   its loop ~15 → ~11 ms CPU, bench/cache-actions.ts).
 *
 * Decision: the row-source loops run `rowsPerIteration` rows per iteration
 * (8, or 4 past four summed slots; then the rest one at a time), each row's
 * statements written out in order, and every loop (the one-pass loop too)
 * updates a row's sums before its count(*), at an int32 index
 * (`(b + o) | 0`). Each is the same operations on the same values in the
 * same order — a later row of an iteration sees every store of the earlier
 * ones, so rows of one group still add in row order — hence the same bits;
 * only the machine code changes. TurboFan re-checks each typed array's map
 * and reloads its length and data pointer once per iteration (it does not
 * hoist them out of the loop; in the optimized code of an 8-row loop the
 * eight rows share one set); `| 0` drops the int32 overflow checks of
 * `S * g` and `b + o` (any state index is below 2^31: the state is a
 * Float64Array); and the count's store ahead of the sum's loads cost ~3 ms
 * of ~17 (cause not pinned: same instructions, reordered). Cached FLIP-36
 * group-by's loop over 2.6M real rows (bench/cache-actions.ts data, S = 4,
 * one slot), load ~3: 17.3 → 14.6 (count last) → 14.4 (int32) → 10.9 ms
 * CPU (8 rows), the hand loop 14.2; synthetic, by slots U (1 / 2 / 5):
 * 12.1 / 18.4 / 36.0 → 8.1 / 13.0 / 27.5 ms.
 *
 * Decision: the one-pass loop (`passLoop`) stays at one row per iteration.
 * Unrolled, each copy of a row has its own type feedback, and behind a
 * selective filter (TPC-H Q6 keeps ~2% of rows) some copies have none when
 * TurboFan compiles: a deopt ("insufficient type feedback") per Q6 run and
 * twice Q1's warm-up deopts (bench/deopt-runs.ts), for no gain measurable
 * above the noise (Q1, Q6 CPU at load ~5).
 */
import type { KeyRows } from '../kernels/hash-byte-keys.js';
import type { NumArray } from '../kernels/column.js';
import { generate, type FailFn } from '../kernels/fused.js';

/** Adds rows sel[j] (or j) for j < m, group gids[j]. */
export type SumLoop = (V: Float64Array[], st: Float64Array, sel: Int32Array | null, gids: Int32Array, m: number) => void;

/** Adds rows sel[j] (or j) for j0 ≤ j < m, the group read through `map` (KeyRows); returns the first j whose key is unresolved (m when none). */
export type CodedLoop = (V: Float64Array[], st: Float64Array, sel: Int32Array | null, ka: Int32Array | Uint8Array, kao: number, kb: Uint8Array | Int32Array | null, kbo: number, map: Int32Array, j0: number, m: number) => number;

/**
 * The one-pass loop (agg-fused-pass.ts): over rows i0 ≤ i < n of a batch, the filter's tests, the
 * group read through `map`, the arguments computed from the leaf columns C and literals K, and the
 * sums — returns the first row whose key is unresolved (n when none).
 */
export type PassLoop = (C: NumArray[], K: number[], st: Float64Array, ka: Int32Array | Uint8Array, kao: number, kb: Uint8Array | Int32Array | null, kbo: number, map: Int32Array, i0: number, n: number, fail: FailFn) => number;

/** How a loop reads a row's group: a KeyRows shape, or 'none' (a global aggregate: every row is group 0). */
export type PassShape = KeyRows['shape'] | 'none';

/** The source of row `r`'s key in `map` (fixed text per shape; `r` names the row variable). */
function keyOf(shape: PassShape, r: 'r' | 'i'): string {
  switch (shape) {
    case 'none': return '0';
    case 'code': return `ka[${r}]`;
    case 'byte': return `ka[kao + ${r}]`;
    case 'pair': return `(ka[kao + ${r}] << 8) | kb[kbo + ${r}]`;
    case 'codes': return `ka[${r}] * kbo + kb[${r}]`;
    case 'int': return `ka[${r}] - kao`;
  }
}

function prologue(S: number, offs: readonly number[]): string {
  let pro = `/* fused sums S=${S} */\n`;
  for (let k = 0; k < offs.length; k++) pro += `const v${k} = V[${k}];\n`;
  return pro;
}

/** `b`, the base of group `g`'s state (stride S), as an int32 (see the header). */
function base(S: number, g: string): string {
  return `const b = (${S} * ${g}) | 0;\n`;
}

/** The per-row update after `b` (the group's base) is known: slot k adds `xs[k]` (default: `v${k}[r]`), then count(*) (see the header). */
function rowUpdate(offs: readonly number[], xs?: readonly string[]): string {
  let body = '';
  for (let k = 0; k < offs.length; k++) {
    const o = offs[k]!;
    body += `{ const x = ${xs?.[k] ?? `v${k}[r]`}; const s = st[(b + ${o}) | 0]; const t = s + x; const bp = t - s; `
      + `st[(b + ${o + 1}) | 0] += (s - (t - bp)) + (x - bp); st[(b + ${o}) | 0] = t; }\n`;
  }
  return `${body}st[b]++;\n`;
}

/**
 * Rows per iteration of the unrolled loops (see the header): 8 while a row adds at most four
 * slots, else 4 (synthetic, 2.6M rows: five slots 36.0 / 27.5 / 31.8 ms at 1 / 4 / 8 rows; eight
 * slots 48.4 / 41.0 ms at 1 / 4).
 */
export function rowsPerIteration(slots: number): number {
  return slots <= 4 ? 8 : 4;
}

/**
 * The text of a loop over positions `from` ≤ j < `to` that runs `row(p)` (one position's statements,
 * `p` a fixed `j + k` text) in order, `u` positions per iteration, then the rest one at a time;
 * `tail` follows the loops.
 */
function unrolled(u: number, from: string, to: string, row: (p: string) => string, tail: string): string {
  let body = '';
  for (let k = 0; k < u; k++) body += `{\n${row(k === 0 ? 'j' : `j + ${k}`)}}\n`;
  return `let j = ${from};\nfor (; j + ${u - 1} < ${to}; j += ${u}) {\n${body}}\nfor (; j < ${to}; j++) {\n${row('j')}}\n${tail}`;
}

/** The row index at position `p`: `sel[p]` (`withSel`) or `p`. */
function rowAt(withSel: boolean, p: string): string {
  return `const r = ${withSel ? `sel[${p}]` : p};\n`;
}

/** The loop over `offs.length` summed columns (member slots at `offs`), stride S, over rows sel[j] (`withSel`) or j. */
export function sumLoop(S: number, offs: readonly number[], withSel: boolean): SumLoop {
  const row = (p: string): string => `${rowAt(withSel, p)}${base(S, `gids[${p}]`)}${rowUpdate(offs)}`;
  return generate<SumLoop>('V,st,sel,gids,m', prologue(S, offs) + unrolled(rowsPerIteration(offs.length), '0', 'm', row, ''));
}

/** `sumLoop` with the group of row r read through `map` by the key shape `shape` (KeyRows). */
export function codedLoop(S: number, offs: readonly number[], withSel: boolean, shape: KeyRows['shape']): CodedLoop {
  const row = (p: string): string => `${rowAt(withSel, p)}const g = map[${keyOf(shape, 'r')}];\nif (g < 0) return ${p};\n${base(S, 'g')}${rowUpdate(offs)}`;
  return generate<CodedLoop>('V,st,sel,ka,kao,kb,kbo,map,j0,m', prologue(S, offs) + unrolled(rowsPerIteration(offs.length), 'j0', 'm', row, 'return m;\n'));
}

/** `codedLoop` over states kept by dictionary code (KeyRows.perm): row r's state is `S * ka[r]`; every row is resolved. */
export function perCodeLoop(S: number, offs: readonly number[], withSel: boolean): CodedLoop {
  const row = (p: string): string => `${rowAt(withSel, p)}${base(S, 'ka[r]')}${rowUpdate(offs)}`;
  return generate<CodedLoop>('V,st,sel,ka,kao,kb,kbo,map,j0,m', prologue(S, offs) + unrolled(rowsPerIteration(offs.length), 'j0', 'm', row, 'return m;\n'));
}

/**
 * The one-pass loop's text around a FusedBuilder's generated parts (all fixed templates, numbers and
 * temp names; agg-fused-pass.ts): `head` (hoisted leaves and literals), per row `filter` (statements
 * ending in `continue` for a row that fails), then the key, then `args` (statements), and slot k
 * adds the value `xs[k]`. One row per iteration (see the header).
 */
export function passLoop(head: string, filter: string, args: string, xs: readonly string[], S: number, offs: readonly number[], shape: PassShape): PassLoop {
  const body = `${head}/* one pass S=${S} ${shape} */\nfor (let i = i0; i < n; i++) {\n${filter}const g = map[${keyOf(shape, 'i')}];\nif (g < 0) return i;\n${args}`
    + `${base(S, 'g')}${rowUpdate(offs, xs)}}\nreturn n;\n`;
  return generate<PassLoop>('C,K,st,ka,kao,kb,kbo,map,i0,n,fail', body);
}
