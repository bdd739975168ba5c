/**
 * LIKE with `%` (any run of characters, newlines included) and `_` (exactly
 * one character); no escape character, as DuckDB's default. A pattern is
 * compiled once: without `_` it is matched on the UTF-8 bytes (exact, prefix,
 * suffix, contains, or ordered segments); with `_` it becomes an anchored
 * RegExp whose literal parts are escaped, tested on the decoded string.
 */
import type { Call } from '../../relnode/rex.js';
import { andValidity } from './bitmap.js';
import type { CompileContext, Kernel } from './context.js';
import { FALSE, TRUE, testKernel, type RowTestFactory } from './row-test.js';
import { stringTest, type BytesTest } from './string-test.js';
import { decodeUtf8, encodeUtf8, strView } from './utf8.js';

function startsAt(bytes: Uint8Array, p: number, seg: Uint8Array): boolean {
  for (let k = 0; k < seg.length; k++) if (bytes[p + k] !== seg[k]) return false;
  return true;
}

/** Index of seg in bytes[from, to), or -1. */
function indexOf(bytes: Uint8Array, from: number, to: number, seg: Uint8Array): number {
  const last = to - seg.length;
  const first = seg[0]!;
  for (let p = from; p <= last; p++) if (bytes[p] === first && startsAt(bytes, p, seg)) return p;
  return -1;
}

/** Compiles a LIKE pattern into a test on UTF-8 bytes. */
export function likeMatcher(pattern: string): (bytes: Uint8Array, s: number, e: number) => boolean {
  if (pattern.includes('_')) {
    let src = '^';
    for (const ch of pattern) {
      if (ch === '%') src += '.*';
      else if (ch === '_') src += '.';
      else src += ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    }
    const re = new RegExp(`${src}$`, 'su');
    return (bytes, s, e) => re.test(decodeUtf8(bytes, s, e));
  }
  const segs = pattern.split('%').map((x) => encodeUtf8(x));
  if (segs.length === 1) {
    const lit = segs[0]!;
    return (bytes, s, e) => e - s === lit.length && startsAt(bytes, s, lit);
  }
  const head = segs[0]!;
  const tail = segs[segs.length - 1]!;
  const middle = segs.slice(1, -1).filter((x) => x.length > 0);
  const minLen = head.length + tail.length;
  if (middle.length === 0) return (bytes, s, e) => e - s >= minLen && startsAt(bytes, s, head) && startsAt(bytes, e - tail.length, tail);
  if (middle.length === 1 && minLen === 0) {
    const m = middle[0]!;
    return (bytes, s, e) => indexOf(bytes, s, e, m) >= 0;
  }
  return (bytes, s, e) => {
    if (e - s < minLen || !startsAt(bytes, s, head) || !startsAt(bytes, e - tail.length, tail)) return false;
    let p = s + head.length;
    const end = e - tail.length;
    for (const m of middle) {
      const at = indexOf(bytes, p, end, m);
      if (at < 0) return false;
      p = at + m.length;
    }
    return true;
  };
}

/** A row test for `x LIKE pattern`. */
export function likeTest(call: Call, ctx: CompileContext): RowTestFactory {
  const [x, p] = call.args as [Call['args'][0], Call['args'][0]];
  const kx = ctx.compile(x);
  if (p.kind === 'Literal' && typeof p.value === 'string') {
    const m = likeMatcher(p.value);
    const t: BytesTest = (bytes, s, e) => (m(bytes, s, e) ? TRUE : FALSE);
    return stringTest(kx, t);
  }
  // Pattern per row: recompiled only when it changes.
  const kp = ctx.compile(p);
  let lastPattern: string | null = null;
  let lastMatcher: ReturnType<typeof likeMatcher> = () => false;
  return (batch) => {
    const vx = strView(kx(batch)), vp = strView(kp(batch));
    return {
      valid: andValidity(vx.valid, vp.valid, batch.numRows),
      test: (i: number) => {
        const kpi = vp.codes === null ? i : vp.codes[i]!;
        const pat = decodeUtf8(vp.entries.bytes, vp.entries.offsets[kpi]!, vp.entries.offsets[kpi + 1]!);
        if (pat !== lastPattern) { lastPattern = pat; lastMatcher = likeMatcher(pat); }
        const kxi = vx.codes === null ? i : vx.codes[i]!;
        return lastMatcher(vx.entries.bytes, vx.entries.offsets[kxi]!, vx.entries.offsets[kxi + 1]!) ? TRUE : FALSE;
      },
    };
  };
}

/** A Bool kernel for LIKE. */
export function compileLike(call: Call, ctx: CompileContext): Kernel {
  return testKernel(likeTest(call, ctx));
}
