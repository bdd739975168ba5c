/**
 * Conditions on one VARCHAR operand (comparison with a literal, LIKE with a
 * literal pattern, IN with literal items): tested on the UTF-8 bytes of each
 * row, or, for a dictionary column, once per dictionary entry (cached per
 * dictionary identity) and then looked up by code.
 */
import type { Kernel } from './context.js';
import { type RowTestFactory } from './row-test.js';
import { strView } from './utf8.js';

/** Tests bytes[start, end): FALSE, TRUE or NULL (row-test outcomes). */
export type BytesTest = (bytes: Uint8Array, start: number, end: number) => number;

/** A row test applying `testBytes` to the string of each row of `arg`. */
export function stringTest(arg: Kernel, testBytes: BytesTest): RowTestFactory {
  const luts = new WeakMap<object, Uint8Array>();
  return (batch) => {
    const v = strView(arg(batch));
    const { offsets, bytes } = v.entries;
    const codes = v.codes;
    if (codes !== null) {
      let lut = luts.get(v.dictKey!);
      if (lut === undefined) {
        const count = v.entries.count;
        lut = new Uint8Array(count);
        for (let k = 0; k < count; k++) lut[k] = testBytes(bytes, offsets[k]!, offsets[k + 1]!);
        luts.set(v.dictKey!, lut);
      }
      const l = lut;
      return { valid: v.valid, test: (i: number) => l[codes[i]!]!, lookup: { codes, lut: l } };
    }
    return { valid: v.valid, test: (i: number) => testBytes(bytes, offsets[i]!, offsets[i + 1]!) };
  };
}
