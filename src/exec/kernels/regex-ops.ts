/**
 * The pattern-level operations of the regexp_* functions, shared by the
 * row-at-a-time path (regex-lib.ts) and the batch kernels (regex-batch.ts):
 * option parsing, compiling (l: literal text), full-match wrapping,
 * extract's group check, and replace / extract over a text's code points
 * (or ASCII bytes, which are their own code points).
 */
import { ExecutionError } from '../../relnode/errors.js';
import type { LiteralValue } from '../../relnode/rex.js';
import { compileRegex, type Regex } from './regex-engine.js';
import type { RegexMatcher } from './regex-exec.js';

const str = (t: ArrayLike<number>, a: number, b: number): string => String.fromCodePoint(...Array.prototype.slice.call(t, a, b) as number[]);

/** Parsed options of a regexp_* call. */
export interface Options { readonly flags: { caseInsensitive: boolean; dotAll: boolean; multiline: boolean }; readonly global: boolean; readonly literal: boolean }

export function parseOptions(fn: string, o: LiteralValue | undefined): Options {
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

/** Compiles a pattern under its options (l: the pattern is literal text). */
export function compilePattern(pattern: string, o: Options): Regex {
  return compileRegex(o.literal ? pattern.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&') : pattern, o.flags);
}

function rewrite(t: ArrayLike<number>, caps: Int32Array, repl: string, groups: number): string {
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

/** regexp_extract's group argument, checked against the pattern. */
export function groupOf(g: LiteralValue | undefined, re: Regex): number {
  const group = g === undefined ? 0 : Number(g);
  if (group < 0 || group > re.groups) throw new ExecutionError(`regexp_extract: group ${group} does not exist; the pattern has ${re.groups} group(s)`);
  return group;
}

/** regexp_full_match's pattern: the whole text from 0. */
export const fullMatchPattern = (p: string): string => `(?:${p})\\z`;

/** regexp_replace over code points `t` (a matching text): the replaced string. */
export function replaceAll(matcher: RegexMatcher, t: ArrayLike<number>, repl: string, global: boolean): string {
  const re = matcher.re;
  let out = '';
  let pos = 0;
  let lastEnd = -1;
  while (pos <= t.length) {
    const m = matcher.exec(t, pos);
    if (m === null) break;
    const [a, b] = [m[0]!, m[1]!];
    if (a === b && a === lastEnd) {
      // No empty match right after the previous match (RE2's GlobalReplace).
      if (a >= t.length) break;
      out += str(t, pos, a + 1);
      pos = a + 1;
      continue;
    }
    out += str(t, pos, a) + rewrite(t, m, repl, re.groups);
    lastEnd = b;
    if (!global) { pos = b; break; }
    if (a === b) {
      if (a < t.length) out += str(t, a, a + 1);
      pos = a + 1;
    } else pos = b;
  }
  return out + (pos < t.length ? str(t, pos, t.length) : '');
}

/** regexp_extract over code points `t`: the group's text, '' without a match. */
export function extractFrom(matcher: RegexMatcher, t: ArrayLike<number>, group: number): string {
  const m = matcher.exec(t);
  return m === null || m[2 * group]! < 0 ? '' : str(t, m[2 * group]!, m[2 * group + 1]!);
}

