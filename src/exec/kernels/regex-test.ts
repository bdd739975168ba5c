/**
 * The boolean form of the regex engine (regex-engine.ts) for
 * regexp_matches / regexp_full_match: the same Pike VM without captures,
 * its thread lists program counters in typed arrays, so testing a row
 * allocates nothing per character (about twice as fast as execRegex).
 */
import { assertAt, type Regex } from './regex-engine.js';

/**
 * Whether `re` matches anywhere in `text` (or all of it from 0 when
 * `anchored` and the pattern ends in \z): the same simulation as execRegex
 * without captures — thread lists are program counters in typed arrays, so
 * a test allocates nothing per character.
 */
export function testRegex(re: Regex, text: readonly number[], anchored = false): boolean {
  const prog = re.prog;
  const m = prog.length;
  let clist = new Int32Array(m), nlist = new Int32Array(m);
  let cn = 0, nn = 0;
  const mark = new Int32Array(m).fill(-1);
  const stack = new Int32Array(m * 2 + 2);
  let gen = 0;
  const add = (list: Int32Array, count: number, pc0: number, k: number): number => {
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
  };
  gen = 1;
  cn = add(clist, 0, 0, 0);
  for (let k = 0; k <= text.length; k++) {
    if (cn === 0 && anchored) return false;
    gen++;
    nn = 0;
    const c = k < text.length ? text[k]! : -1;
    for (let t = 0; t < cn; t++) {
      const inst = prog[clist[t]!]!;
      if (inst.op === 'match') return true;
      if (inst.op === 'char' && c >= 0 && inst.pred(c)) nn = add(nlist, nn, clist[t]! + 1, k + 1);
    }
    const tmp = clist; clist = nlist; nlist = tmp; cn = nn;
    if (!anchored && k < text.length) cn = add(clist, cn, 0, k + 1);
  }
  return false;
}

