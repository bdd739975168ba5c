/**
 * The boolean form of the regex engine (regex-engine.ts) for
 * regexp_matches / regexp_full_match and as the cheap pre-test of
 * regexp_replace / regexp_extract: the same Pike VM without captures. A
 * RegexTester is made once per compiled pattern and reused for every row:
 * its thread lists, marks and stack are typed arrays allocated once (a row
 * allocates nothing), ASCII characters are tested by table lookup, and two
 * shortcuts skip most of the text: a pattern that starts with `^` / `\A`
 * starts threads only at 0, and one that starts with a literal prefix
 * (`fu[a-z]+y`, or a pure literal) jumps, while no thread is alive, straight
 * to the next occurrence of the prefix (no occurrence: no match).
 */
import { assertAt, type Regex } from './regex-engine.js';

/** The literal code points every match starts with, and whether matches can only start at 0. */
function analyse(re: Regex): { prefix: Int32Array; startAnchored: boolean } {
  const prog = re.prog;
  const lits: number[] = [];
  let pc = 0;
  let startAnchored = false;
  for (let guard = 0; guard < prog.length; guard++) {
    const inst = prog[pc]!;
    if (inst.op === 'save') { pc++; continue; }
    if (inst.op === 'jmp') { pc = inst.x; continue; }
    if (inst.op === 'assert' && lits.length === 0 && (inst.kind === '^' || inst.kind === 'A')) { startAnchored = true; pc++; continue; }
    if (inst.op === 'char' && inst.lit !== undefined) { lits.push(inst.lit); pc++; continue; }
    break;
  }
  return { prefix: Int32Array.from(lits), startAnchored };
}

/** Tests texts (code points or ASCII bytes) against one pattern, reusing its buffers. */
export class RegexTester {
  private clist: Int32Array;
  private nlist: Int32Array;
  private readonly mark: Int32Array;
  private readonly stack: Int32Array;
  private gen = 0;
  private readonly prefix: Int32Array;
  private readonly startAnchored: boolean;

  constructor(readonly re: Regex) {
    const m = re.prog.length;
    this.clist = new Int32Array(m);
    this.nlist = new Int32Array(m);
    this.mark = new Int32Array(m).fill(-1);
    this.stack = new Int32Array(m * 2 + 2);
    ({ prefix: this.prefix, startAnchored: this.startAnchored } = analyse(re));
  }

  /** The first position >= from where the literal prefix occurs, or -1. */
  private nextCandidate(text: ArrayLike<number>, from: number): number {
    const p = this.prefix, m = p.length, first = p[0]!;
    for (let k = from, last = text.length - m; k <= last; k++) {
      if (text[k] !== first) continue;
      let j = 1;
      while (j < m && text[k + j] === p[j]) j++;
      if (j === m) return k;
    }
    return -1;
  }

  /** Follows the epsilon moves from pc0 at position k, appending char/match threads to `list`. */
  private add(list: Int32Array, count: number, pc0: number, text: ArrayLike<number>, k: number): number {
    const prog = this.re.prog, mark = this.mark, stack = this.stack, gen = this.gen;
    let sp = 0;
    stack[sp++] = pc0;
    while (sp > 0) {
      const pc = stack[--sp]!;
      if (mark[pc] === gen) continue;
      mark[pc] = gen;
      const inst = prog[pc]!;
      switch (inst.op) {
        case 'jmp': stack[sp++] = inst.x; break;
        case 'split': stack[sp++] = inst.y; stack[sp++] = inst.x; break;
        case 'save': stack[sp++] = pc + 1; break;
        case 'assert': if (assertAt(inst.kind, text, k)) stack[sp++] = pc + 1; break;
        default: list[count++] = pc;
      }
    }
    return count;
  }

  private nextGen(): void {
    if (++this.gen > 0x3fffffff) { this.mark.fill(-1); this.gen = 1; }
  }

  /**
   * Whether the pattern matches anywhere in `text` (or all of it from 0 when
   * `anchored` and the pattern ends in \z).
   */
  test(text: ArrayLike<number>, anchored = false): boolean {
    const prog = this.re.prog;
    const n = text.length;
    const restart = !anchored && !this.startAnchored;
    const skip = restart && this.prefix.length > 0;
    let k = 0;
    // Skip mode: start threads only where the prefix occurs; nextStart is the next such position after k.
    let nextStart = -1;
    if (skip) {
      k = this.nextCandidate(text, 0);
      if (k < 0) return false;
      nextStart = this.nextCandidate(text, k + 1);
    }
    let clist = this.clist, nlist = this.nlist;
    this.nextGen();
    let cn = this.add(clist, 0, 0, text, k);
    for (; k <= n; k++) {
      if (cn === 0) {
        if (!restart) return false;
        if (skip) {
          if (nextStart < 0) return false;
          k = nextStart;
          nextStart = this.nextCandidate(text, k + 1);
          this.nextGen();
          cn = this.add(clist, 0, 0, text, k);
        }
      }
      this.nextGen();
      let nn = 0;
      const c = k < n ? text[k]! : -1;
      for (let t = 0; t < cn; t++) {
        const inst = prog[clist[t]!]!;
        if (inst.op === 'match') return true;
        if (inst.op === 'char' && c >= 0 && (c < 128 ? inst.ascii[c] === 1 : inst.pred(c))) nn = this.add(nlist, nn, clist[t]! + 1, text, k + 1);
      }
      const tmp = clist; clist = nlist; nlist = tmp; cn = nn;
      if (restart && k < n) {
        if (!skip) cn = this.add(clist, cn, 0, text, k + 1);
        else if (nextStart === k + 1) {
          cn = this.add(clist, cn, 0, text, k + 1);
          nextStart = this.nextCandidate(text, k + 2);
        }
      }
    }
    return false;
  }
}

/** Whether `re` matches anywhere in `text` (one-off; kernels keep a RegexTester per pattern). */
export function testRegex(re: Regex, text: ArrayLike<number>, anchored = false): boolean {
  return new RegexTester(re).test(text, anchored);
}
