/**
 * The capturing Pike VM of the regex engine (regex-engine.ts): leftmost-
 * first matches with submatch positions, RE2's semantics. A RegexMatcher is
 * made once per compiled pattern and reused: every thread's capture slots
 * live in two typed-array arenas (the current and the next list), the
 * epsilon closure walks an explicit stack that saves and restores one slot
 * at a time instead of copying a capture array per `save`, and ASCII
 * characters are tested by table lookup — a match allocates only its result.
 */
import { assertAt, type Regex } from './regex-engine.js';

/** Finds matches of one pattern, reusing its buffers. */
export class RegexMatcher {
  private readonly nslots: number;
  private cpc: Int32Array;
  private npc: Int32Array;
  private ccaps: Int32Array;
  private ncaps: Int32Array;
  private readonly cur: Int32Array;
  private readonly mark: Int32Array;
  private stack: Int32Array;
  private gen = 0;

  constructor(readonly re: Regex) {
    const m = re.prog.length;
    this.nslots = 2 * (re.groups + 1);
    this.cpc = new Int32Array(m);
    this.npc = new Int32Array(m);
    this.ccaps = new Int32Array(m * this.nslots);
    this.ncaps = new Int32Array(m * this.nslots);
    this.cur = new Int32Array(this.nslots);
    this.mark = new Int32Array(m).fill(-1);
    this.stack = new Int32Array(8 * m + 8);
  }

  private nextGen(): void {
    if (++this.gen > 0x3fffffff) { this.mark.fill(-1); this.gen = 1; }
  }

  /**
   * Adds the threads reachable from pc0 at position k (capture slots from `src` at `off`, or all -1
   * when off < 0) to the list (pcs, caps) after `count` entries, in priority order; returns the new count.
   */
  private add(pcs: Int32Array, caps: Int32Array, count: number, pc0: number, src: Int32Array, off: number, text: ArrayLike<number>, k: number): number {
    const prog = this.re.prog, mark = this.mark, cur = this.cur, ns = this.nslots, gen = this.gen;
    if (off < 0) cur.fill(-1); else for (let j = 0; j < ns; j++) cur[j] = src[off + j]!;
    let stack = this.stack;
    let sp = 0;
    // Entries are pairs: (pc, -1) visits pc; (-2 - slot, old) restores a capture slot.
    stack[sp++] = pc0; stack[sp++] = -1;
    while (sp > 0) {
      const b = stack[--sp]!, a = stack[--sp]!;
      if (a < 0) { cur[-2 - a] = b; continue; }
      const pc = a;
      if (mark[pc] === gen) continue;
      mark[pc] = gen;
      if (sp + 6 > stack.length) { const bigger = new Int32Array(stack.length * 2); bigger.set(stack); this.stack = stack = bigger; }
      const inst = prog[pc]!;
      switch (inst.op) {
        case 'jmp': stack[sp++] = inst.x; stack[sp++] = -1; break;
        case 'split': stack[sp++] = inst.y; stack[sp++] = -1; stack[sp++] = inst.x; stack[sp++] = -1; break;
        case 'save':
          stack[sp++] = -2 - inst.n; stack[sp++] = cur[inst.n]!;
          cur[inst.n] = k;
          stack[sp++] = pc + 1; stack[sp++] = -1;
          break;
        case 'assert': if (assertAt(inst.kind, text, k)) { stack[sp++] = pc + 1; stack[sp++] = -1; } break;
        default:
          pcs[count] = pc;
          caps.set(cur, count * ns);
          count++;
      }
    }
    return count;
  }

  /**
   * The leftmost-first match in `text` (code points, or ASCII bytes) searching from `from`: capture
   * positions (-1 for a group that did not take part), or null. `anchored`: the match must start at `from`.
   */
  exec(text: ArrayLike<number>, from = 0, anchored = false): Int32Array | null {
    const prog = this.re.prog, ns = this.nslots, n = text.length;
    let cpc = this.cpc, npc = this.npc, ccaps = this.ccaps, ncaps = this.ncaps;
    let matched: Int32Array | null = null;
    this.nextGen();
    let cn = this.add(cpc, ccaps, 0, 0, ccaps, -1, text, from);
    for (let k = from; k <= n; k++) {
      if (cn === 0 && (matched !== null || anchored)) break;
      this.nextGen();
      let nn = 0;
      const c = k < n ? text[k]! : -1;
      for (let t = 0; t < cn; t++) {
        const inst = prog[cpc[t]!]!;
        // A match cuts the lower-priority threads after it (leftmost-first).
        if (inst.op === 'match') { matched = ccaps.slice(t * ns, (t + 1) * ns); break; }
        if (inst.op === 'char' && c >= 0 && (c < 128 ? inst.ascii[c] === 1 : inst.pred(c))) nn = this.add(npc, ncaps, nn, cpc[t]! + 1, ccaps, t * ns, text, k + 1);
      }
      const tp = cpc; cpc = npc; npc = tp;
      const tc = ccaps; ccaps = ncaps; ncaps = tc;
      cn = nn;
      // A thread starting at the next position has the lowest priority.
      if (matched === null && !anchored && k < n) cn = this.add(cpc, ccaps, cn, 0, ccaps, -1, text, k + 1);
    }
    this.cpc = cpc; this.npc = npc; this.ccaps = ccaps; this.ncaps = ncaps;
    return matched;
  }
}

/** The leftmost-first match of `re` in `text` from `from` (one-off; kernels keep a RegexMatcher per pattern). */
export function execRegex(re: Regex, text: ArrayLike<number>, from = 0, anchored = false): Int32Array | null {
  return new RegexMatcher(re).exec(text, from, anchored);
}
