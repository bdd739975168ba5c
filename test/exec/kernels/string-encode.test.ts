/**
 * string-encode-lib.ts as kernels: hashes, hex / bin, base64, url_encode / url_decode, strip_accents
 * over plain, dictionary-encoded and sliced (offset > 0) columns with NULLs, giving the same rows.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { evalExpr, fn, ref, type ColSpec } from './kernel-helpers.js';

const VALUES = ['apple', null, 'Ångström', '', 'apple', 'a b/c', null, 'apple'];
const col = (dict: boolean): ColSpec => ({ type: 'VARCHAR', values: VALUES, dict });
const s0 = ref(0, 'VARCHAR');
const md5 = (s: string): string => createHash('md5').update(s).digest('hex');

describe('string → string kernels over dictionaries and slices', () => {
  const cases: readonly (readonly [string, (s: string) => string])[] = [
    ['md5', md5],
    ['sha256', (s) => createHash('sha256').update(s).digest('hex')],
    ['hex', (s) => Buffer.from(s).toString('hex').toUpperCase()],
    ['to_base64', (s) => Buffer.from(s).toString('base64')],
    ['url_encode', (s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)],
    ['strip_accents', (s) => s.replace('Å', 'A').replace('ö', 'o')],
  ];
  for (const [op, want] of cases) {
    for (const dict of [false, true]) {
      for (const slice of [0, 3]) {
        it(`${op} (dictionary=${dict}, slice=${slice})`, () => {
          const expected = VALUES.map((v) => (v === null ? null : want(v)));
          expect(evalExpr(fn(op, [s0], 'VARCHAR'), [col(dict)], slice)).toEqual(expected);
        });
      }
    }
  }

  it('url_decode inverts url_encode and leaves bad escapes alone', () => {
    const enc = evalExpr(fn('url_encode', [s0], 'VARCHAR'), [col(true)]);
    const back = evalExpr(fn('url_decode', [s0], 'VARCHAR'), [{ type: 'VARCHAR', values: enc }]);
    expect(back).toEqual(VALUES);
    expect(evalExpr(fn('url_decode', [s0], 'VARCHAR'), [{ type: 'VARCHAR', values: ['%4', '%zz', '100%', 'a+b', '%41%42'] }])).toEqual(['%4', '%zz', '100%', 'a+b', 'AB']);
  });
});
