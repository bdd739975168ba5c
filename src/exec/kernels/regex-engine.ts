/**
 * A linear-time regular expression engine (Thompson NFA simulated as a Pike
 * VM, after RE2): every match runs in O(text × pattern), whatever the
 * pattern — a user's pattern can never make a query take exponential time,
 * as a backtracking engine (JS RegExp) can. Semantics are RE2's, which
 * DuckDB uses: leftmost-first alternation, greedy and lazy quantifiers,
 * submatch capture. Syntax: literals and escapes (\n \t \. ...), `.`,
 * classes `[a-z]` `[^...]` with \d \w \s inside, \d \D \w \W \s \S, anchors
 * ^ $ \A \z, word boundaries \b \B, groups `(...)` `(?:...)` `(?i:...)`,
 * `|`, `* + ? {n} {n,} {n,m}` and their lazy `?` forms; flags i (case-
 * insensitive), s (`.` matches newline), m (^ $ at line ends).
 * Backreferences and lookaround cannot be matched in linear time: they are
 * rejected with an error saying so (as RE2 does). Characters are code points.
 * The simulations live in regex-test.ts (match or not) and regex-exec.ts (captures).
 */
import { ValidationError } from '../../relnode/errors.js';

type Pred = (c: number) => boolean;
/** Zero-width assertions; `m^` and `m$` are ^ and $ under the m flag (at line breaks too). */
type AssertKind = '^' | '$' | 'm^' | 'm$' | 'A' | 'z' | 'b' | 'B';
/** One instruction of a compiled pattern. */
export type Inst =
  /** `ascii[c]` is pred(c) for c < 128 (a table lookup in the hot loops); `lit` is the code point when the pred is one literal character. */
  | { op: 'char'; pred: Pred; ascii: Uint8Array; lit: number | undefined }
  | { op: 'split'; x: number; y: number }
  | { op: 'jmp'; x: number }
  | { op: 'save'; n: number }
  | { op: 'assert'; kind: AssertKind }
  | { op: 'match' };

/** A compiled pattern. */
export interface Regex {
  readonly prog: readonly Inst[];
  /** Number of capture groups (group 0 is the whole match). */
  readonly groups: number;
  readonly multiline: boolean;
}

/** Flags of a pattern. */
export interface RegexFlags { readonly caseInsensitive?: boolean; readonly dotAll?: boolean; readonly multiline?: boolean }

type Node =
  | { t: 'pred'; pred: Pred; lit?: number }
  | { t: 'cat'; items: Node[] }
  | { t: 'alt'; items: Node[] }
  | { t: 'rep'; node: Node; min: number; max: number; lazy: boolean }
  | { t: 'group'; node: Node; index: number | null }
  | { t: 'assert'; kind: AssertKind };

/** The most instructions one pattern may compile to (counted repetitions expand). */
const MAX_PROGRAM = 20_000;

const isDigit: Pred = (c) => c >= 48 && c <= 57;
export const isWord: Pred = (c) => isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isSpace: Pred = (c) => c === 32 || (c >= 9 && c <= 13);
const not = (p: Pred): Pred => (c) => !p(c);

function fold(p: Pred): Pred {
  return (c) => {
    if (p(c)) return true;
    const s = String.fromCodePoint(c);
    const l = s.toLowerCase().codePointAt(0)!, u = s.toUpperCase().codePointAt(0)!;
    return (l !== c && p(l)) || (u !== c && p(u));
  };
}

class Parser {
  private i = 0;
  private groups = 0;
  constructor(private readonly src: number[], private readonly text: string, private flags: RegexFlags) {}

  private fail(msg: string): never { throw new ValidationError(`invalid regular expression '${this.text}': ${msg}`); }
  private peek(): number | undefined { return this.src[this.i]; }
  private eat(c: string): boolean { if (this.src[this.i] === c.codePointAt(0)) { this.i++; return true; } return false; }

  parse(): { node: Node; groups: number } {
    const node = this.alt();
    if (this.i < this.src.length) this.fail(`unmatched ')' at position ${this.i + 1}`);
    return { node, groups: this.groups };
  }

  private alt(): Node {
    const items = [this.cat()];
    while (this.eat('|')) items.push(this.cat());
    return items.length === 1 ? items[0]! : { t: 'alt', items };
  }

  private cat(): Node {
    const items: Node[] = [];
    for (let c = this.peek(); c !== undefined && c !== 0x7c && c !== 0x29; c = this.peek()) items.push(this.repeat(this.atom()));
    return { t: 'cat', items };
  }

  private repeat(node: Node): Node {
    for (;;) {
      let min: number, max: number;
      const start = this.i;
      if (this.eat('*')) { min = 0; max = Infinity; }
      else if (this.eat('+')) { min = 1; max = Infinity; }
      else if (this.eat('?')) { min = 0; max = 1; }
      else if (this.peek() === 0x7b && this.counted()) { [min, max] = this.counted()!; this.skipCounted(); }
      else return node;
      if (node.t === 'assert') this.fail(`nothing to repeat at position ${start + 1}`);
      const lazy = this.eat('?');
      if (this.eat('+')) this.fail('possessive quantifiers are not supported');
      node = { t: 'rep', node, min, max, lazy };
    }
  }

  /** {n}, {n,}, {n,m} at the cursor, or undefined when it is a literal brace. */
  private counted(): [number, number] | undefined {
    const rest = String.fromCodePoint(...this.src.slice(this.i, this.i + 24));
    const m = /^\{(\d+)(,(\d*))?\}/.exec(rest);
    if (m === null) return undefined;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
    if (max < min || min > 1000 || (max !== Infinity && max > 1000)) this.fail(`bad repetition count ${m[0]} (at most 1000)`);
    return [min, max];
  }

  private skipCounted(): void { while (this.src[this.i] !== 0x7d) this.i++; this.i++; }

  private atom(): Node {
    const c = this.src[this.i++]!;
    const ch = String.fromCodePoint(c);
    const lit = (p: Pred): Node => ({ t: 'pred', pred: this.flags.caseInsensitive ? fold(p) : p });
    switch (ch) {
      case '(': return this.group();
      case '[': return lit(this.charClass());
      case '.': return { t: 'pred', pred: this.flags.dotAll ? () => true : (x) => x !== 10 };
      case '^': return { t: 'assert', kind: this.flags.multiline ? 'm^' : '^' };
      case '$': return { t: 'assert', kind: this.flags.multiline ? 'm$' : '$' };
      case '\\': return this.escape(false) as Node;
      case '*': case '+': case '?': this.fail(`nothing to repeat at position ${this.i}`);
      // eslint-disable-next-line no-fallthrough
      default: return this.flags.caseInsensitive ? lit((x) => x === c) : { t: 'pred', pred: (x) => x === c, lit: c };
    }
  }

  private group(): Node {
    if (this.eat('?')) {
      if (this.eat(':')) return this.groupBody(null);
      const look = this.peek();
      if (look === 0x3d || look === 0x21 || look === 0x3c) {
        this.fail('lookahead and lookbehind ((?=...), (?!...), (?<=...), (?<!...)) are not supported: eddy matches regular expressions in linear time (RE2 syntax)');
      }
      if (look === 0x50) { this.i++; if (this.eat('<')) { while (this.peek() !== undefined && !this.eat('>')); return this.groupBody(++this.groups); } }
      const saved = this.flags;
      const flags: { caseInsensitive?: boolean; dotAll?: boolean; multiline?: boolean } = { ...saved };
      let on = true;
      for (;;) {
        const f = this.src[this.i++];
        if (f === undefined) this.fail('unterminated group flags');
        const fc = String.fromCodePoint(f);
        if (fc === '-') { on = false; continue; }
        if (fc === 'i') flags.caseInsensitive = on;
        else if (fc === 's') flags.dotAll = on;
        else if (fc === 'm') flags.multiline = on;
        else if (fc === ')') { this.flags = flags; return { t: 'cat', items: [] }; }
        else if (fc === ':') { this.flags = flags; const g = this.groupBody(null); this.flags = saved; return g; }
        else this.fail(`unknown group flag '${fc}'`);
      }
    }
    return this.groupBody(++this.groups);
  }

  private groupBody(index: number | null): Node {
    const node = this.alt();
    if (!this.eat(')')) this.fail('missing )');
    return { t: 'group', node, index };
  }

  /** After a backslash: a class predicate, an assertion, or (in a class) a predicate only. */
  private escape(inClass: boolean): Node | Pred {
    const c = this.src[this.i++];
    if (c === undefined) this.fail('trailing backslash');
    const ch = String.fromCodePoint(c);
    const pred = (p: Pred): Node | Pred => (inClass ? p : { t: 'pred', pred: this.flags.caseInsensitive ? fold(p) : p });
    switch (ch) {
      case 'd': return pred(isDigit);
      case 'D': return pred(not(isDigit));
      case 'w': return pred(isWord);
      case 'W': return pred(not(isWord));
      case 's': return pred(isSpace);
      case 'S': return pred(not(isSpace));
      case 'n': return pred((x) => x === 10);
      case 't': return pred((x) => x === 9);
      case 'r': return pred((x) => x === 13);
      case 'f': return pred((x) => x === 12);
      case 'v': return pred((x) => x === 11);
      case 'b': case 'B': case 'A': case 'z':
        if (inClass) this.fail(`\\${ch} is not allowed in a character class`);
        return { t: 'assert', kind: ch as AssertKind };
      default:
        if (ch >= '1' && ch <= '9') this.fail(`backreferences (\\${ch}) are not supported: eddy matches regular expressions in linear time (RE2 syntax)`);
        if (/[a-zA-Z0-9]/.test(ch)) this.fail(`unknown escape \\${ch}`);
        return inClass || this.flags.caseInsensitive ? pred((x) => x === c) : { t: 'pred', pred: (x) => x === c, lit: c };
    }
  }

  private charClass(): Pred {
    const negate = this.eat('^');
    const parts: Pred[] = [];
    let first = true;
    for (;;) {
      const c = this.src[this.i];
      if (c === undefined) this.fail('missing ]');
      if (c === 0x5d && !first) { this.i++; break; }
      first = false;
      if (c === 0x5b && this.src[this.i + 1] === 0x3a) {
        const rest = String.fromCodePoint(...this.src.slice(this.i, this.i + 12));
        const m = /^\[:(\^?)(alpha|digit|alnum|space|upper|lower|punct|xdigit|word):\]/.exec(rest);
        if (m === null) this.fail('bad POSIX class');
        this.i += m[0].length;
        const p = POSIX[m[2]!]!;
        parts.push(m[1] ? not(p) : p);
        continue;
      }
      let lo: number;
      this.i++;
      if (c === 0x5c) {
        const e = this.escape(true) as Pred;
        const single = this.src[this.i - 1]!;
        if (/[dDwWsS]/.test(String.fromCodePoint(single))) { parts.push(e); continue; }
        lo = { n: 10, t: 9, r: 13, f: 12, v: 11 }[String.fromCodePoint(single)] ?? single;
      } else lo = c;
      if (this.src[this.i] === 0x2d && this.src[this.i + 1] !== undefined && this.src[this.i + 1] !== 0x5d) {
        this.i++;
        let hi = this.src[this.i++]!;
        if (hi === 0x5c) hi = this.src[this.i++]!;
        if (hi < lo) this.fail('bad character class range');
        const a = lo, b = hi;
        parts.push((x) => x >= a && x <= b);
      } else {
        const a = lo;
        parts.push((x) => x === a);
      }
    }
    const any: Pred = (x) => parts.some((p) => p(x));
    return negate ? (x) => !(this.flags.caseInsensitive ? fold(any)(x) : any(x)) : any;
  }
}

const POSIX: Record<string, Pred> = {
  alpha: (c) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122),
  digit: isDigit,
  alnum: (c) => isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122),
  space: isSpace,
  upper: (c) => c >= 65 && c <= 90,
  lower: (c) => c >= 97 && c <= 122,
  punct: (c) => (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126),
  xdigit: (c) => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102),
  word: isWord,
};

function emit(n: Node, prog: Inst[], text: string): void {
  if (prog.length > MAX_PROGRAM) throw new ValidationError(`regular expression '${text}' is too large (counted repetitions expand to more than ${MAX_PROGRAM} steps)`);
  switch (n.t) {
    case 'pred': {
      const ascii = new Uint8Array(128);
      for (let c = 0; c < 128; c++) ascii[c] = n.pred(c) ? 1 : 0;
      prog.push({ op: 'char', pred: n.pred, ascii, lit: n.lit });
      return;
    }
    case 'assert': prog.push({ op: 'assert', kind: n.kind }); return;
    case 'cat': for (const x of n.items) emit(x, prog, text); return;
    case 'group':
      if (n.index !== null) prog.push({ op: 'save', n: 2 * n.index });
      emit(n.node, prog, text);
      if (n.index !== null) prog.push({ op: 'save', n: 2 * n.index + 1 });
      return;
    case 'alt': {
      const jumps: Inst[] = [];
      n.items.forEach((x, k) => {
        if (k < n.items.length - 1) {
          const split = { op: 'split', x: prog.length + 1, y: 0 } as Inst & { op: 'split' };
          prog.push(split);
          emit(x, prog, text);
          const j = { op: 'jmp', x: 0 } as Inst & { op: 'jmp' };
          prog.push(j);
          jumps.push(j);
          split.y = prog.length;
        } else emit(x, prog, text);
      });
      for (const j of jumps) (j as { x: number }).x = prog.length;
      return;
    }
    case 'rep': {
      for (let k = 0; k < n.min; k++) emit(n.node, prog, text);
      if (n.max === Infinity) {
        const split = { op: 'split', x: 0, y: 0 } as Inst & { op: 'split' };
        const at = prog.length;
        prog.push(split);
        emit(n.node, prog, text);
        prog.push({ op: 'jmp', x: at });
        if (n.lazy) { split.x = prog.length; split.y = at + 1; } else { split.x = at + 1; split.y = prog.length; }
        return;
      }
      const splits: (Inst & { op: 'split' })[] = [];
      for (let k = n.min; k < n.max; k++) {
        const split = { op: 'split', x: 0, y: 0 } as Inst & { op: 'split' };
        splits.push(split);
        prog.push(split);
        const body = prog.length;
        emit(n.node, prog, text);
        if (n.lazy) split.y = body; else split.x = body;
      }
      for (const s of splits) { if (n.lazy) s.x = prog.length; else s.y = prog.length; }
      return;
    }
  }
}

/** Compiles a pattern; throws a ValidationError for bad syntax, backreferences and lookaround. */
export function compileRegex(pattern: string, flags: RegexFlags = {}): Regex {
  const { node, groups } = new Parser(Array.from(pattern, (c) => c.codePointAt(0)!), pattern, flags).parse();
  const prog: Inst[] = [{ op: 'save', n: 0 }];
  emit(node, prog, pattern);
  prog.push({ op: 'save', n: 1 }, { op: 'match' });
  return { prog, groups, multiline: flags.multiline === true };
}

/** Whether the zero-width assertion `kind` (^ $ m^ m$ A z b B) holds at position `k` of `text` (code points). */
export function assertAt(kind: string, text: ArrayLike<number>, k: number): boolean {
  const prev = k > 0 ? text[k - 1]! : -1, next = k < text.length ? text[k]! : -1;
  switch (kind) {
    case '^': return k === 0;
    case '$': return k === text.length;
    case 'm^': return k === 0 || prev === 10;
    case 'm$': return k === text.length || next === 10;
    case 'A': return k === 0;
    case 'z': return k === text.length;
    case 'b': return isWord(prev) !== isWord(next);
    default: return isWord(prev) === isWord(next);
  }
}
