/**
 * `x IN (v1, ..., vn)`: TRUE on a match; otherwise NULL if x or any item is
 * NULL, else FALSE. Literal items are looked up in a byte table (integers in
 * a small range), a typed key list (short lists) or a Set, per dictionary
 * entry for dictionary columns; items that are
 * expressions are compared with `=` and OR-ed in, which gives the same NULLs.
 */
import { call, type Call, type RexNode } from '../../relnode/rex.js';
import { boolBitsOf, validityOf } from './bitmap.js';
import { numbersOf } from './column.js';
import type { CompileContext, Kernel } from './context.js';
import { doubleEq } from './float-order.js';
import { int64ToSafeNumbers } from './int64.js';
import { FALSE, NULL, TRUE, testKernel, type RowTestFactory } from './row-test.js';
import { stringTest } from './string-test.js';
import { decodeUtf8, encodeUtf8 } from './utf8.js';

/** Compiles IN; literal items use a lookup, expression items become `x = item` OR-ed with it. */
export function compileIn(e: Call, ctx: CompileContext): Kernel {
  const [x, ...items] = e.args as [RexNode, ...RexNode[]];
  const lits = items.filter((a) => a.kind === 'Literal');
  const exprs = items.filter((a) => a.kind !== 'Literal');
  if (exprs.length === 0) return testKernel(inLiteralsTest(x, lits.map((l) => (l.kind === 'Literal' ? l.value : null)), ctx));
  const parts: RexNode[] = exprs.map((a) => call('eq', [x, a], 'BOOLEAN'));
  if (lits.length > 0) parts.unshift(call('in', [x, ...lits], 'BOOLEAN'));
  return ctx.compile(parts.length === 1 ? parts[0]! : call('or', parts, 'BOOLEAN'));
}

/** A row test for IN over literal items (used by compileIn and predicates). */
export function inLiteralsTest(x: RexNode, values: readonly (string | number | bigint | boolean | null)[], ctx: CompileContext): RowTestFactory {
  const kx = ctx.compile(x);
  const anyNull = values.some((v) => v === null);
  const miss = anyNull ? NULL : FALSE;
  const present = values.filter((v) => v !== null);
  if (x.type === 'VARCHAR') {
    const strs = present.map(String);
    const prefix = prefixIn(x, strs, miss, ctx);
    if (prefix !== undefined) return prefix;
    if (strs.length <= 8) {
      const keys = strs.map((s) => encodeUtf8(s));
      return stringTest(kx, (bytes, s, e) => {
        const len = e - s;
        for (const key of keys) {
          if (key.length !== len) continue;
          let k = 0;
          while (k < len && bytes[s + k] === key[k]) k++;
          if (k === len) return TRUE;
        }
        return miss;
      });
    }
    const set = new Set(strs);
    return stringTest(kx, (bytes, s, e) => (set.has(decodeUtf8(bytes, s, e)) ? TRUE : miss));
  }
  if (x.type === 'BOOLEAN') {
    const hasT = present.includes(true), hasF = present.includes(false);
    return (batch) => {
      const d = kx(batch);
      const bits = boolBitsOf(d);
      return { valid: validityOf(d), test: (i: number) => (((bits[i >> 3]! >> (i & 7)) & 1) !== 0 ? (hasT ? TRUE : miss) : hasF ? TRUE : miss) };
    };
  }
  const nums = present.map((v) => Number(v));
  // The exact BIGINT set is built only when a batch holds a value beyond 2^53 (rare; 100k-item lists made every compile pay it).
  let exactBig: Set<bigint> | null = null;
  const bigSet = (): Set<bigint> => (exactBig ??= new Set(present.map((v) => BigInt(v as number | bigint))));
  const keys = Float64Array.from(nums);
  const set = keys.length <= 8 ? null : new Set(nums);
  const has = set === null
    ? (v: number) => { for (let k = 0; k < keys.length; k++) if (doubleEq(keys[k]!, v)) return true; return false; }
    : (v: number) => set.has(v); // SameValueZero: NaN finds NaN, -0 finds 0 (float-order.ts)
  const table = smallIntTable(nums);
  return (batch) => {
    const n = batch.numRows;
    const d = kx(batch);
    const valid = validityOf(d);
    if (x.type === 'BIGINT' && d.values instanceof BigInt64Array) {
      const safe = int64ToSafeNumbers(d.values, n);
      const big = d.values;
      // Beyond 2^53 doubles are inexact: compare bigints.
      if (safe === null) { const exact = bigSet(); return { valid, test: (i: number) => (exact.has(big[i]!) ? TRUE : miss) }; }
      if (table !== null) { const { lo, span, bits } = table; return { valid, test: (i: number) => { const k = safe[i]! - lo; return k >= 0 && k <= span && bits[k] === 1 ? TRUE : miss; } }; }
      return { valid, test: (i: number) => (has(safe[i]!) ? TRUE : miss) };
    }
    const v = numbersOf(d, n);
    if (table !== null) {
      const { lo, span, bits } = table;
      // A fraction or NaN gives a non-integer or NaN index: bits[...] is undefined, a miss; -0 - lo = -lo.
      return { valid, test: (i: number) => { const k = v[i]! - lo; return k >= 0 && k <= span && bits[k] === 1 ? TRUE : miss; } };
    }
    return { valid, test: (i: number) => (has(v[i]!) ? TRUE : miss) };
  };
}

/** Widest range (hi - lo) of integer items looked up in a byte table instead of compared one by one. */
export const SMALL_INT_SPAN = 1 << 16;

/**
 * `p_size IN (49, 14, 23, 45, 19, 3, 36, 9)` (TPC-H Q16): when every item is an integer in a range
 * of at most SMALL_INT_SPAN values, a table of one byte per value in the range answers a row with
 * one subtraction and one load, instead of up to eight comparisons (or a Set probe for longer
 * lists). Null when an item is not an integer or the range is wider.
 */
export function smallIntTable(nums: readonly number[]): { lo: number; span: number; bits: Uint8Array } | null {
  if (nums.length < 2 || !nums.every((x) => Number.isSafeInteger(x))) return null;
  let lo = Infinity, hi = -Infinity;
  for (const x of nums) { if (x < lo) lo = x; if (x > hi) hi = x; }
  const span = hi - lo;
  if (span > SMALL_INT_SPAN) return null;
  const bits = new Uint8Array(span + 1);
  for (const x of nums) bits[x - lo] = 1;
  return { lo, span, bits };
}

/**
 * `substring(s, 1, k) IN ('ab', ...)` with every item k ASCII characters (TPC-H Q22's country codes):
 * the first k bytes of s are compared in place, no substring is materialized. Exact: an ASCII item
 * equals the first k characters exactly when it equals the first k bytes (a shorter or multi-byte
 * prefix has a byte ≥ 0x80 or fewer than k bytes there). For k ≤ 2 the first bytes index a table
 * (Q22's two-digit codes). Undefined when the shape does not fit.
 */
function prefixIn(x: RexNode, strs: readonly string[], miss: number, ctx: CompileContext): RowTestFactory | undefined {
  if (x.kind !== 'Call' || x.op !== 'substring' || x.args.length !== 3) return undefined;
  const [s, start, len] = x.args as [RexNode, RexNode, RexNode];
  if (s.type !== 'VARCHAR' || start.kind !== 'Literal' || len.kind !== 'Literal' || Number(start.value) !== 1) return undefined;
  const k = Number(len.value);
  if (!Number.isInteger(k) || k < 1 || typeof len.value === 'boolean' || len.value === null) return undefined;
  if (strs.length === 0 || strs.length > 16 || strs.some((t) => t.length !== k || !/^[\x00-\x7f]*$/.test(t))) return undefined;
  const keys = strs.map((t) => encodeUtf8(t));
  if (k <= 2) {
    // One or two bytes: a table indexed by them (256 or 65,536 entries) answers with one load.
    const table = new Uint8Array(k === 1 ? 256 : 65536);
    for (const key of keys) table[k === 1 ? key[0]! : (key[0]! << 8) | key[1]!] = 1;
    if (k === 1) return stringTest(ctx.compile(s), (bytes, b, e) => (e > b && table[bytes[b]!] === 1 ? TRUE : miss));
    return stringTest(ctx.compile(s), (bytes, b, e) => (e - b >= 2 && table[(bytes[b]! << 8) | bytes[b + 1]!] === 1 ? TRUE : miss));
  }
  return stringTest(ctx.compile(s), (bytes, b, e) => {
    if (e - b < k) return miss;
    for (const key of keys) {
      let j = 0;
      while (j < k && bytes[b + j] === key[j]) j++;
      if (j === k) return TRUE;
    }
    return miss;
  });
}
