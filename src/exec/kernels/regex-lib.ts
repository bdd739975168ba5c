/**
 * regexp_matches, regexp_full_match, regexp_replace, regexp_extract on the
 * linear-time engine of regex-engine.ts (DuckDB semantics, RE2 syntax).
 * Options (the last VARCHAR argument, as DuckDB's): c case-sensitive
 * (default), i case-insensitive, s `.` matches newline, m / n / p `.` does
 * not (the default), l the pattern is a literal string, g (regexp_replace)
 * every match; `^` `$` at line breaks is the inline flag `(?m)`. A replacement's `\0`..`\9`
 * insert a capture group, `\\` a backslash.
 * A constant pattern (the usual case) runs vectorised per batch
 * (regex-batch.ts: compiled once, ASCII rows matched on their bytes, a cheap
 * boolean pre-test before any capture work); a pattern that varies by row
 * takes the row-at-a-time path here, with compiled patterns cached per kernel.
 */
import type { Call } from '../../relnode/rex.js';
import type { CallCompiler } from './context.js';
import type { Regex } from './regex-engine.js';
import { regexBatchKernel } from './regex-batch.js';
import { RegexMatcher } from './regex-exec.js';
import { compilePattern, extractFrom, fullMatchPattern, groupOf, parseOptions, replaceAll, type Options } from './regex-ops.js';
import { RegexTester } from './regex-test.js';
import { rowKernel, type RowFn } from './rowwise.js';

const cps = (s: string): number[] => Array.from(s, (c) => c.codePointAt(0)!);

/** A compiled pattern with its reusable boolean tester and capturing matcher. */
export interface Compiled { readonly re: Regex; readonly tester: RegexTester; readonly matcher: RegexMatcher }

/** A small per-kernel cache of compiled patterns. */
function cache(): (pattern: string, o: Options) => Compiled {
  const m = new Map<string, Compiled>();
  return (pattern, o) => {
    const key = `${o.flags.caseInsensitive ? 'i' : ''}${o.flags.dotAll ? 's' : ''}${o.literal ? 'l' : ''}/${pattern}`;
    let c = m.get(key);
    if (c === undefined) {
      const re = compilePattern(pattern, o);
      c = { re, tester: new RegexTester(re), matcher: new RegexMatcher(re) };
      if (m.size > 256) m.clear();
      m.set(key, c);
    }
    return c;
  };
}

/** Row-at-a-time forms, for patterns that vary by row. */
function fns(): Readonly<Record<string, RowFn>> {
  const get = cache();
  return {
    regexp_matches: ([s, p, o]) => get(p as string, parseOptions('regexp_matches', o)).tester.test(cps(s as string)),
    regexp_full_match: ([s, p, o]) => get(fullMatchPattern(p as string), parseOptions('regexp_full_match', o)).tester.test(cps(s as string), true),
    regexp_extract: ([s, p, g]) => {
      const { re, matcher } = get(p as string, parseOptions('regexp_extract', undefined));
      return extractFrom(matcher, cps(s as string), groupOf(g, re));
    },
    regexp_replace: ([s, p, r, o]) => {
      const opts = parseOptions('regexp_replace', o);
      return replaceAll(get(p as string, opts).matcher, cps(s as string), r as string, opts.global);
    },
  };
}

/** The ids compiled here. */
export const REGEX_LIB_IDS: readonly string[] = Object.keys(fns());

/** Compiles one of REGEX_LIB_IDS: vectorised when every argument after the text is a constant. */
export const compileRegexLib: CallCompiler = (e: Call, ctx) => {
  const args = e.args.map((a) => ctx.compile(a));
  const generic = rowKernel(args, e.type, fns()[e.op]!);
  const rest = e.args.slice(1);
  if (!rest.every((a) => a.kind === 'Literal' && a.value !== null)) return generic;
  return regexBatchKernel(e.op, args[0]!, rest.map((a) => (a as Extract<typeof a, { kind: 'Literal' }>).value), generic);
};
