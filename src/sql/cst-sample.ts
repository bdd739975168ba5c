/**
 * The USING SAMPLE clause's CST (parser-select-parts.ts) to its AST, with DuckDB's defaults and checks:
 * a bare number is a row count, sampled by `reservoir`; a percentage (`10%`, `10 PERCENT`) by `system`;
 * `bernoulli` and `system` take only a percentage (they keep each row or block with a probability).
 * The seed comes from `(method, seed)` or `REPEATABLE (seed)`, not both. `FROM t TABLESAMPLE ...` takes the same body.
 */
import type { CstNode, IToken } from 'chevrotain';
import type { SampleClause } from './ast.js';
import { astError, has, maybeToken, node, nodePos, token, tokenPos, tokens } from './cst-access.js';
import type { AstContext } from './cst-expr.js';

const METHODS = ['reservoir', 'bernoulli', 'system'] as const;

/** Converts a `sampleClause` CST node (USING SAMPLE ...). */
export function sampleClause(cx: AstContext, n: CstNode): SampleClause {
  const word = token(n, 'sampleWord');
  if (word.image.toLowerCase() !== 'sample') throw astError(cx.text, tokenPos(word), `expected SAMPLE after USING (USING SAMPLE 10%, USING SAMPLE 100 ROWS), got "${word.image}"`);
  return sampleBody(cx, node(n, 'body'));
}

/** Converts a `sampleBody` CST node (after USING SAMPLE, or a table's TABLESAMPLE). */
export function sampleBody(cx: AstContext, n: CstNode): SampleClause {
  const sizeNode = node(n, 'size');
  const valueTok = token(sizeNode, 'value');
  const value = Number(valueTok.image);
  const percent = has(sizeNode, 'percent');
  const methodTok = maybeToken(n, 'method');
  const method = methodTok === undefined ? (percent ? 'system' : 'reservoir') : methodOf(cx, methodTok);
  if (percent) {
    if (!(value >= 0 && value <= 100)) throw astError(cx.text, tokenPos(valueTok), `a sample percentage must be between 0 and 100, got ${valueTok.image}`);
  } else {
    if (!Number.isSafeInteger(value)) throw astError(cx.text, tokenPos(valueTok), `a sample size in rows must be a whole number, got ${valueTok.image} (write ${valueTok.image}% for a percentage)`);
    if (method !== 'reservoir') throw astError(cx.text, tokenPos(methodTok!), `${method} sampling takes a percentage (USING SAMPLE 10% (${method})); a number of rows needs reservoir`);
  }
  const seeds = tokens(n, 'seed');
  if (seeds.length > 1) throw astError(cx.text, tokenPos(seeds[1]!), 'the sample seed is given twice: write it in (method, seed) or in REPEATABLE (seed)');
  const seed = seeds.length === 1 ? seedOf(cx, seeds[0]!) : undefined;
  return { method, size: percent ? { percent: value } : { rows: value }, ...(seed === undefined ? {} : { seed }), pos: nodePos(n) };
}

function methodOf(cx: AstContext, t: IToken): SampleClause['method'] {
  const m = t.image.toLowerCase();
  const found = METHODS.find((x) => x === m);
  if (found === undefined) throw astError(cx.text, tokenPos(t), `unknown sampling method "${t.image}": use reservoir, bernoulli or system`);
  return found;
}

function seedOf(cx: AstContext, t: IToken): number {
  const v = Number(t.image);
  if (!Number.isSafeInteger(v) || v < 0) throw astError(cx.text, tokenPos(t), `a sample seed must be a whole number ≥ 0, got ${t.image}`);
  return v;
}
