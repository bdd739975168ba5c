/**
 * Kernels for `x [NOT] LIKE | ILIKE p [ESCAPE c]` (Call ops `like`, `ilike`,
 * with an optional third argument, the escape character). A constant pattern
 * is compiled once into a linear-time matcher on the UTF-8 bytes (see
 * like-match.ts; dictionary columns test each entry once); a pattern or
 * escape that varies per row is recompiled only when it changes from the
 * previous row (small cache of recent patterns).
 */
import type { Call, RexNode } from '../../relnode/rex.js';
import { andValidity } from './bitmap.js';
import type { CompileContext, Kernel } from './context.js';
import { likeMatcher, type LikeMatcher } from './like-match.js';
import { FALSE, NULL, TRUE, testKernel, type RowTestFactory } from './row-test.js';
import { stringTest, type BytesTest } from './string-test.js';
import { decodeUtf8, strView, type StrView } from './utf8.js';

export { likeMatcher } from './like-match.js';

/** Compiled matchers of recently seen per-row patterns (bounded: a column of distinct patterns must not grow memory). */
const RECENT = 64;

/** A row test for `x LIKE pattern` / `x ILIKE pattern`, with an optional escape argument. */
export function likeTest(call: Call, ctx: CompileContext): RowTestFactory {
  const [x, p, esc] = call.args as [RexNode, RexNode, RexNode | undefined];
  const caseInsensitive = call.op === 'ilike';
  const kx = ctx.compile(x);
  // A NULL pattern or escape: NULL for every row.
  if ([p, esc].some((a) => a !== undefined && a.kind === 'Literal' && a.value === null)) return () => ({ valid: null, test: () => NULL });
  const constEscape = esc === undefined ? '' : esc.kind === 'Literal' && typeof esc.value === 'string' ? esc.value : null;
  if (p.kind === 'Literal' && typeof p.value === 'string' && constEscape !== null) {
    const m = likeMatcher(p.value, { caseInsensitive, escape: constEscape });
    const t: BytesTest = (bytes, s, e) => (m(bytes, s, e) ? TRUE : FALSE);
    return stringTest(kx, t);
  }
  const kp = ctx.compile(p);
  const ke = esc === undefined ? null : ctx.compile(esc);
  const recent = new Map<string, LikeMatcher>();
  const matcherFor = (pat: string, escape: string): LikeMatcher => {
    const key = `${escape.length}:${escape}${pat}`;
    let m = recent.get(key);
    if (m === undefined) {
      m = likeMatcher(pat, { caseInsensitive, escape });
      if (recent.size >= RECENT) recent.delete(recent.keys().next().value!);
      recent.set(key, m);
    }
    return m;
  };
  const text = (v: StrView, i: number): string => {
    const k = v.codes === null ? i : v.codes[i]!;
    return decodeUtf8(v.entries.bytes, v.entries.offsets[k]!, v.entries.offsets[k + 1]!);
  };
  return (batch) => {
    const n = batch.numRows;
    const vx = strView(kx(batch)), vp = strView(kp(batch));
    const ve = ke === null ? null : strView(ke(batch));
    const valid = andValidity(andValidity(vx.valid, vp.valid, n), ve === null ? null : ve.valid, n);
    let lastPat: string | null = null, lastEsc: string | null = null;
    let last: LikeMatcher = () => false;
    return {
      valid,
      test: (i: number) => {
        const pat = text(vp, i);
        const escape = ve === null ? (constEscape ?? '') : text(ve, i);
        if (pat !== lastPat || escape !== lastEsc) { lastPat = pat; lastEsc = escape; last = matcherFor(pat, escape); }
        const kxi = vx.codes === null ? i : vx.codes[i]!;
        return last(vx.entries.bytes, vx.entries.offsets[kxi]!, vx.entries.offsets[kxi + 1]!) ? TRUE : FALSE;
      },
    };
  };
}

/** A Bool kernel for LIKE / ILIKE. */
export function compileLike(call: Call, ctx: CompileContext): Kernel {
  return testKernel(likeTest(call, ctx));
}
