/**
 * TRY_CAST(x AS t): the cast kernel of cast.ts, with a value that cannot be
 * converted (bad text, out of range) NULL instead of an error, as DuckDB.
 * The Call is try_cast(x, 'T') — the target type is a VARCHAR literal
 * argument, so two TRY_CASTs to different types never compare equal as
 * expressions. Decision: the whole batch goes through the vectorized cast
 * first; only a batch with a failing row is redone row by row.
 */
import { ExecutionError } from '../../relnode/errors.js';
import { cast as mkCast, inputRef, type Cast, type Call } from '../../relnode/rex.js';
import { field, schemaOf } from '../../relnode/types.js';
import { batchFromColumns } from '../batch.js';
import { compileCast } from './cast.js';
import type { CompileContext, Kernel } from './context.js';
import { OutputColumn } from './rowwise.js';
import { readValue } from './value-at.js';

/** Compiles try_cast(x, 'TYPE'). */
export function compileTryCast(e: Call, ctx: CompileContext): Kernel {
  const x = e.args[0]!;
  const arg = ctx.compile(x);
  if (x.type === e.type) return arg;
  const schema = schemaOf([field('x', x.type)]);
  const inner = compileCast(mkCast(inputRef(0, x.type), e.type) as Cast, { ...ctx, schema, compile: (r) => (r.kind === 'InputRef' ? (b) => b.data.children[0]! : ctx.compile(r)) });
  return (batch) => {
    const d = arg(batch);
    const n = batch.numRows;
    try {
      return inner(batchFromColumns(['x'], [d], n));
    } catch (err) {
      if (!(err instanceof ExecutionError)) throw err;
    }
    const out = new OutputColumn(e.type, n);
    for (let i = 0; i < n; i++) {
      try {
        out.push(readValue(inner(batchFromColumns(['x'], [d.slice(i, 1)], 1)), 0));
      } catch (err) {
        if (!(err instanceof ExecutionError)) throw err;
        out.push(null);
      }
    }
    return out.finish();
  };
}
