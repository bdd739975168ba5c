/**
 * BIGINT arithmetic, exact. `+ - *` first try doubles (every input and result
 * below 2^53 in magnitude, so exact) and fall back to bigint per row; `// % neg
 * abs` use bigint. Overflow of int64 is an ExecutionError, as in DuckDB;
 * `x // 0` and `x % 0` are NULL.
 */
import type * as arrow from 'apache-arrow';
import { ExecutionError, InternalError } from '../../relnode/errors.js';
import type { Call } from '../../relnode/rex.js';
import { andValidity, bitAt, maskNulls, validityOf } from './bitmap.js';
import { makeColumn } from './column.js';
import { display, inExpr, type CompileContext, type Kernel } from './context.js';
import { int64ToSafeNumbers, numbersToInt64, SAFE_LIMIT } from './int64.js';

const MIN = -(2n ** 63n);
const SYM: Readonly<Record<string, string>> = { plus: '+', minus: '-', times: '*', int_divide: '//', mod: '%' };

/** Compiles plus, minus, times, int_divide, mod, neg, abs, floor, ceil on BIGINT. */
export function compileBigint(e: Call, ctx: CompileContext): Kernel {
  const ka = ctx.compile(e.args[0]!);
  if (e.op === 'floor' || e.op === 'ceil') return ka;
  const kb = e.args.length > 1 ? ctx.compile(e.args[1]!) : null;
  const overflow = (shown: string): ExecutionError =>
    new ExecutionError(`integer overflow: ${shown} is out of range for BIGINT${inExpr(shown, e, ctx)}`);
  if (kb === null) {
    if (e.op !== 'neg' && e.op !== 'abs') throw new InternalError(`unexpected BIGINT function ${e.op}`);
    const neg = e.op === 'neg';
    return (batch) => {
      const n = batch.numRows;
      const da = ka(batch);
      const a = da.values as BigInt64Array;
      const valid = validityOf(da);
      const out = new BigInt64Array(n);
      for (let i = 0; i < n; i++) {
        const x = a[i]!;
        if (x === MIN && (valid === null || bitAt(valid, i) === 1)) throw overflow(neg ? `-(${x})` : `abs(${x})`);
        out[i] = neg || x < 0n ? -x : x;
      }
      return makeColumn('BIGINT', out, valid, n);
    };
  }
  const op = e.op;
  const sym = SYM[op];
  if (sym === undefined) throw new InternalError(`unexpected BIGINT function ${op}`);
  return (batch): arrow.Data => {
    const n = batch.numRows;
    const da = ka(batch), db = kb(batch);
    const a = da.values as BigInt64Array, b = db.values as BigInt64Array;
    const valid = andValidity(validityOf(da), validityOf(db), n);
    if (op === 'plus' || op === 'minus' || op === 'times') {
      const fast = viaDoubles(op, a, b, n);
      if (fast !== null) return makeColumn('BIGINT', fast, valid, n);
    }
    const out = new BigInt64Array(n);
    let nul: Uint8Array | null = null;
    for (let i = 0; i < n; i++) {
      if (valid !== null && bitAt(valid, i) === 0) continue;
      const x = a[i]!, y = b[i]!;
      let r: bigint;
      switch (op) {
        case 'plus': r = x + y; break;
        case 'minus': r = x - y; break;
        case 'times': r = x * y; break;
        default:
          if (y === 0n) { (nul ??= new Uint8Array(n))[i] = 1; continue; }
          if (x === MIN && y === -1n) throw overflow(`${x} ${sym} ${y}`);
          r = op === 'mod' ? x % y : x / y;
      }
      if (r !== BigInt.asIntN(64, r)) throw overflow(`${x} ${sym} ${y}`);
      out[i] = r;
    }
    return makeColumn('BIGINT', out, nul === null ? valid : maskNulls(valid, nul, n), n);
  };
}

/** + - * in doubles when every operand and result is below 2^53 (hence exact); null otherwise. */
function viaDoubles(op: string, a: BigInt64Array, b: BigInt64Array, n: number): BigInt64Array | null {
  const x = int64ToSafeNumbers(a, n);
  if (x === null) return null;
  const y = int64ToSafeNumbers(b, n);
  if (y === null) return null;
  const r = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = op === 'plus' ? x[i]! + y[i]! : op === 'minus' ? x[i]! - y[i]! : x[i]! * y[i]!;
    if (v >= SAFE_LIMIT || v <= -SAFE_LIMIT) return null;
    r[i] = v;
  }
  return numbersToInt64(r, n);
}
