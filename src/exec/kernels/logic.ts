/**
 * SQL three-valued logic on bit-packed booleans, a byte (8 rows) at a time:
 * with T = value AND valid and F = NOT value AND valid per operand,
 * AND gives T = Ta & Tb, F = Fa | Fb; OR gives T = Ta | Tb, F = Fa & Fb; NOT swaps them.
 * So FALSE AND NULL = FALSE and TRUE OR NULL = TRUE. Also IS [NOT] NULL.
 */
import type * as arrow from 'apache-arrow';
import type { Call } from '../../relnode/rex.js';
import { rexInputs } from '../../relnode/rex.js';
import { ExecutionError } from '../../relnode/errors.js';
import { allOnes, boolBitsOf, byteLength, newBits, popcount, validityOf } from './bitmap.js';
import { makeColumn } from './column.js';
import type { CompileContext, Kernel } from './context.js';
import { evalOnRows } from './selection.js';

/** TRUE and FALSE masks of a Bool Data (row-0-aligned, fresh arrays). */
function truthMasks(d: arrow.Data, n: number): { t: Uint8Array; f: Uint8Array } {
  const nb = byteLength(n);
  const v = boolBitsOf(d);
  const valid = validityOf(d);
  const t = new Uint8Array(nb);
  const f = new Uint8Array(nb);
  if (valid === null) for (let k = 0; k < nb; k++) { t[k] = v[k]!; f[k] = ~v[k]! & 0xff; }
  else for (let k = 0; k < nb; k++) { t[k] = v[k]! & valid[k]!; f[k] = ~v[k]! & valid[k]!; }
  return { t, f };
}

function fromMasks(t: Uint8Array, f: Uint8Array, n: number): arrow.Data {
  const nb = byteLength(n);
  const valid = new Uint8Array(nb);
  for (let k = 0; k < nb; k++) valid[k] = t[k]! | f[k]!;
  return makeColumn('BOOLEAN', t, popcount(valid, n) === n ? null : valid, n);
}

/** AND / OR of two or more booleans. A later operand that throws on a row already decided is re-run on the undecided rows. */
export function compileAndOr(call: Call, ctx: CompileContext): Kernel {
  const isAnd = call.op === 'and';
  const args = call.args.map((a) => ({ kernel: ctx.compile(a), cols: rexInputs(a) }));
  return (batch) => {
    const n = batch.numRows;
    const nb = byteLength(n);
    const acc = truthMasks(args[0]!.kernel(batch), n);
    for (let j = 1; j < args.length; j++) {
      const a = args[j]!;
      let d: arrow.Data;
      try {
        d = a.kernel(batch);
      } catch (e) {
        if (!(e instanceof ExecutionError)) throw e;
        // Undecided rows: not yet FALSE (AND) / not yet TRUE (OR).
        const decided = isAnd ? acc.f : acc.t;
        const rows = new Int32Array(n);
        let m = 0;
        for (let i = 0; i < n; i++) if (((decided[i >> 3]! >> (i & 7)) & 1) === 0) rows[m++] = i;
        if (m === n) throw e;
        d = evalOnRows(a.kernel, 'BOOLEAN', batch, rows.subarray(0, m), ctx.schema, a.cols);
      }
      const m = truthMasks(d, n);
      if (isAnd) for (let k = 0; k < nb; k++) { acc.t[k]! &= m.t[k]!; acc.f[k]! |= m.f[k]!; }
      else for (let k = 0; k < nb; k++) { acc.t[k]! |= m.t[k]!; acc.f[k]! &= m.f[k]!; }
    }
    return fromMasks(acc.t, acc.f, n);
  };
}

/** NOT: swaps TRUE and FALSE, keeps NULL. */
export function compileNot(call: Call, ctx: CompileContext): Kernel {
  const arg = ctx.compile(call.args[0]!);
  return (batch) => {
    const n = batch.numRows;
    const { t, f } = truthMasks(arg(batch), n);
    return fromMasks(f, t, n);
  };
}

/** IS NULL / IS NOT NULL: never NULL. */
export function compileIsNull(call: Call, ctx: CompileContext): Kernel {
  const arg = ctx.compile(call.args[0]!);
  const wantNull = call.op === 'is_null';
  return (batch) => {
    const n = batch.numRows;
    const valid = validityOf(arg(batch));
    if (valid === null) return makeColumn('BOOLEAN', wantNull ? newBits(n) : allOnes(n), null, n);
    const nb = byteLength(n);
    const out = new Uint8Array(nb);
    if (wantNull) for (let k = 0; k < nb; k++) out[k] = ~valid[k]! & 0xff;
    else out.set(valid.subarray(0, nb));
    return makeColumn('BOOLEAN', out, null, n);
  };
}
