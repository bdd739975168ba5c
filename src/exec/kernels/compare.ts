/**
 * Comparisons that are not fused numeric loops: VARCHAR (byte-wise UTF-8, i.e.
 * code-point order, as DuckDB), BOOLEAN (FALSE < TRUE) and BIGINT (as doubles
 * when every value is below 2^53, else as bigint). Numbers compare under the
 * total order of float-order.ts (NaN = NaN, NaN above +Infinity, -0 = 0).
 */
import { InternalError } from '../../relnode/errors.js';
import type { Call } from '../../relnode/rex.js';
import type { SqlType } from '../../relnode/types.js';
import { andValidity, boolBitsOf, validityOf } from './bitmap.js';
import { numbersOf } from './column.js';
import type { CompileContext, Kernel } from './context.js';
import { int64ToSafeNumbers } from './int64.js';
import { compareDoubles } from './float-order.js';
import { FALSE, TRUE, testKernel, type RowTestFactory } from './row-test.js';
import { stringTest } from './string-test.js';
import { compareBytes, encodeUtf8, strView } from './utf8.js';

/** `a op b` given the sign of a - b. */
const SIGN_TESTS: Readonly<Record<string, (c: number) => boolean>> = {
  eq: (c) => c === 0, ne: (c) => c !== 0, lt: (c) => c < 0, le: (c) => c <= 0, gt: (c) => c > 0, ge: (c) => c >= 0,
};
/** The op with its operands swapped (`5 < x` is `x > 5`). */
export const FLIPPED: Readonly<Record<string, string>> = { eq: 'eq', ne: 'ne', lt: 'gt', le: 'ge', gt: 'lt', ge: 'le' };

/** A row test for a comparison call (eq, ne, lt, le, gt, ge). */
export function compareTest(call: Call, ctx: CompileContext): RowTestFactory {
  let [a, b] = call.args as [Call['args'][0], Call['args'][0]];
  let op = call.op;
  if (a.kind === 'Literal' && b.kind !== 'Literal') { [a, b] = [b, a]; op = FLIPPED[op]!; }
  const sign = SIGN_TESTS[op];
  if (sign === undefined) throw new InternalError(`not a comparison: ${call.op}`);
  const type: SqlType = a.type === 'NULL' ? b.type : a.type;
  const ka = ctx.compile(a);
  if (type === 'VARCHAR' && b.kind === 'Literal' && typeof b.value === 'string') return stringLiteralTest(ka, op, encodeUtf8(b.value));
  const kb = ctx.compile(b);
  switch (type) {
    case 'VARCHAR': return stringColumnsTest(ka, kb, sign);
    case 'BOOLEAN': return boolTest(ka, kb, sign);
    default: return numberTest(ka, kb, sign);
  }
}

/** A Bool kernel for a comparison call. */
export function compileCompare(call: Call, ctx: CompileContext): Kernel {
  return testKernel(compareTest(call, ctx));
}

function stringLiteralTest(arg: Kernel, op: string, lit: Uint8Array): RowTestFactory {
  const ll = lit.length;
  if (op === 'eq' || op === 'ne') {
    const hit = op === 'eq' ? TRUE : FALSE;
    const miss = op === 'eq' ? FALSE : TRUE;
    return stringTest(arg, (bytes, s, e) => {
      if (e - s !== ll) return miss;
      for (let k = 0; k < ll; k++) if (bytes[s + k] !== lit[k]) return miss;
      return hit;
    });
  }
  const sign = SIGN_TESTS[op]!;
  return stringTest(arg, (bytes, s, e) => (sign(compareBytes(bytes, s, e, lit, 0, ll)) ? TRUE : FALSE));
}

function stringColumnsTest(ka: Kernel, kb: Kernel, sign: (c: number) => boolean): RowTestFactory {
  return (batch) => {
    const va = strView(ka(batch));
    const vb = strView(kb(batch));
    const ea = va.entries, eb = vb.entries;
    const ca = va.codes, cb = vb.codes;
    return {
      valid: andValidity(va.valid, vb.valid, batch.numRows),
      test: (i: number) => {
        const x = ca === null ? i : ca[i]!;
        const y = cb === null ? i : cb[i]!;
        return sign(compareBytes(ea.bytes, ea.offsets[x]!, ea.offsets[x + 1]!, eb.bytes, eb.offsets[y]!, eb.offsets[y + 1]!)) ? TRUE : FALSE;
      },
    };
  };
}

function boolTest(ka: Kernel, kb: Kernel, sign: (c: number) => boolean): RowTestFactory {
  return (batch) => {
    const da = ka(batch), db = kb(batch);
    const xa = boolBitsOf(da), xb = boolBitsOf(db);
    return {
      valid: andValidity(validityOf(da), validityOf(db), batch.numRows),
      test: (i: number) => (sign(((xa[i >> 3]! >> (i & 7)) & 1) - ((xb[i >> 3]! >> (i & 7)) & 1)) ? TRUE : FALSE),
    };
  };
}

function numberTest(ka: Kernel, kb: Kernel, sign: (c: number) => boolean): RowTestFactory {
  return (batch) => {
    const n = batch.numRows;
    const da = ka(batch), db = kb(batch);
    const valid = andValidity(validityOf(da), validityOf(db), n);
    const va = da.values, vb = db.values;
    if (va instanceof BigInt64Array && vb instanceof BigInt64Array) {
      const fa = int64ToSafeNumbers(va, n), fb = int64ToSafeNumbers(vb, n);
      if (fa === null || fb === null) {
        // Exact bigint comparison when some value is beyond 2^53.
        return { valid, test: (i: number) => { const x = va[i]!, y = vb[i]!; return sign(x < y ? -1 : x > y ? 1 : 0) ? TRUE : FALSE; } };
      }
      return { valid, test: (i: number) => (sign(fa[i]! - fb[i]!) ? TRUE : FALSE) };
    }
    const fa = numbersOf(da, n), fb = numbersOf(db, n);
    return { valid, test: (i: number) => (sign(compareDoubles(fa[i]!, fb[i]!)) ? TRUE : FALSE) };
  };
}
