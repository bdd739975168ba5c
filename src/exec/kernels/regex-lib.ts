/**
 * regexp_matches, regexp_full_match, regexp_replace, regexp_extract on the
 * linear-time engine of regex-engine.ts (DuckDB semantics, RE2 syntax).
 * Options (the last VARCHAR argument, as DuckDB's): c case-sensitive
 * (default), i case-insensitive, s `.` matches newline, m / n / p `.` does
 * not (the default), l the pattern is a literal string, g (regexp_replace)
 * every match; `^` `$` at line breaks is the inline flag `(?m)`. A replacement's `\0`..`\9`
 * insert a capture group, `\\` a backslash. Compiled patterns are cached per
 * kernel (a pattern is almost always a constant).
 */
import { ExecutionError } from '../../relnode/errors.js';
import type { Call, LiteralValue } from '../../relnode/rex.js';
import type { CallCompiler } from './context.js';
import { compileRegex, execRegex, type Regex } from './regex-engine.js';
import { testRegex } from './regex-test.js';
import { rowKernel, type RowFn } from './rowwise.js';

const cps = (s: string): number[] => Array.from(s, (c) => c.codePointAt(0)!);
const str = (t: readonly number[], a: number, b: number): string => String.fromCodePoint(...t.slice(a, b));

interface Options { readonly flags: { caseInsensitive: boolean; dotAll: boolean; multiline: boolean }; readonly global: boolean; readonly literal: boolean }

function parseOptions(fn: string, o: LiteralValue | undefined): Options {
  const flags = { caseInsensitive: false, dotAll: false, multiline: false };
  let global = false;
  let literal = false;
  for (const c of o === undefined || o === null ? '' : String(o)) {
    if (c === 'i') flags.caseInsensitive = true;
    else if (c === 'c') flags.caseInsensitive = false;
    else if (c === 's') flags.dotAll = true;
    else if (c === 'm' || c === 'n' || c === 'p') flags.dotAll = false;
    else if (c === 'l') literal = true;
    else if (c === 'g' && fn === 'regexp_replace') global = true;
    else throw new ExecutionError(`${fn}: unknown regular expression option '${c}' (use c, i, s, m, n, p, l${fn === 'regexp_replace' ? ', g' : ''})`);
  }
  return { flags, global, literal };
}

/** A small per-kernel cache of compiled patterns. */
function cache(): (pattern: string, o: Options) => Regex {
  const m = new Map<string, Regex>();
  return (pattern, o) => {
    const key = `${o.flags.caseInsensitive ? 'i' : ''}${o.flags.dotAll ? 's' : ''}${o.literal ? 'l' : ''}/${pattern}`;
    let re = m.get(key);
    if (re === undefined) {
      re = compileRegex(o.literal ? pattern.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&') : pattern, o.flags);
      if (m.size > 256) m.clear();
      m.set(key, re);
    }
    return re;
  };
}

function rewrite(t: readonly number[], caps: Int32Array, repl: string, groups: number): string {
  let out = '';
  for (let i = 0; i < repl.length; i++) {
    const c = repl[i]!;
    if (c !== '\\' || i + 1 >= repl.length) { out += c; continue; }
    const d = repl[++i]!;
    if (d >= '0' && d <= '9') {
      const g = Number(d);
      if (g > groups) throw new ExecutionError(`regexp_replace: the replacement refers to group \\${g}, but the pattern has ${groups} group(s)`);
      if (caps[2 * g]! >= 0) out += str(t, caps[2 * g]!, caps[2 * g + 1]!);
    } else out += d;
  }
  return out;
}

function fns(): Readonly<Record<string, RowFn>> {
  const get = cache();
  return {
    regexp_matches: ([s, p, o]) => testRegex(get(p as string, parseOptions('regexp_matches', o)), cps(s as string)),
    regexp_full_match: ([s, p, o]) => {
      const t = cps(s as string);
      const re = get(`(?:${p as string})\\z`, parseOptions('regexp_full_match', o));
      return testRegex(re, t, true);
    },
    regexp_extract: ([s, p, g]) => {
      const re = get(p as string, parseOptions('regexp_extract', undefined));
      const group = g === undefined ? 0 : Number(g);
      if (group < 0 || group > re.groups) throw new ExecutionError(`regexp_extract: group ${group} does not exist; the pattern has ${re.groups} group(s)`);
      const t = cps(s as string);
      const m = execRegex(re, t);
      return m === null || m[2 * group]! < 0 ? '' : str(t, m[2 * group]!, m[2 * group + 1]!);
    },
    regexp_replace: ([s, p, r, o]) => {
      const opts = parseOptions('regexp_replace', o);
      const re = get(p as string, opts);
      const t = cps(s as string);
      let out = '';
      let pos = 0;
      let lastEnd = -1;
      while (pos <= t.length) {
        const m = execRegex(re, t, pos);
        if (m === null) break;
        const [a, b] = [m[0]!, m[1]!];
        if (a === b && a === lastEnd) {
          // No empty match right after the previous match (RE2's GlobalReplace).
          if (a >= t.length) break;
          out += str(t, pos, a + 1);
          pos = a + 1;
          continue;
        }
        out += str(t, pos, a) + rewrite(t, m, r as string, re.groups);
        lastEnd = b;
        if (!opts.global) { pos = b; break; }
        if (a === b) {
          if (a < t.length) out += str(t, a, a + 1);
          pos = a + 1;
        } else pos = b;
      }
      return out + (pos < t.length ? str(t, pos, t.length) : '');
    },
  };
}

/** The ids compiled here. */
export const REGEX_LIB_IDS: readonly string[] = Object.keys(fns());

/** Compiles one of REGEX_LIB_IDS. */
export const compileRegexLib: CallCompiler = (e: Call, ctx) => {
  const args = e.args.map((a) => ctx.compile(a));
  return rowKernel(args, e.type, fns()[e.op]!);
};
