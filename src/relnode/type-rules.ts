/**
 * Building blocks of the result-type rules of the function catalog
 * (functions.ts, functions-library.ts): a rule returns a SqlType or a
 * TypeMismatch naming what was expected. A file of its own so that the
 * catalog's parts can share the rules without importing each other.
 */
import { commonType, isNumeric, type SqlType } from './types.js';

/** A type error: what was expected and what was given. Distinct from SqlType (which is also a string). */
export interface TypeMismatch {
  readonly error: string;
}

/** True when a type rule returned an error rather than a type. */
export function isMismatch(r: unknown): r is TypeMismatch {
  return typeof r === 'object' && r !== null && 'error' in r;
}

export const mismatch = (error: string): TypeMismatch => ({ error });

/** The common numeric type of the arguments (INTEGER when all are NULL). */
export const numericResult = (name: string) => (a: readonly SqlType[]): SqlType | TypeMismatch => {
  let t: SqlType = 'NULL';
  for (const x of a) {
    if (x !== 'NULL' && !isNumeric(x)) return mismatch(`${name} expects numeric arguments, got ${a.join(', ')}`);
    const c = commonType(t, x);
    if (c === undefined) return mismatch(`${name} expects numeric arguments, got ${a.join(', ')}`);
    t = c;
  }
  return t === 'NULL' ? 'INTEGER' : t;
};

/** Every argument cast to the arguments' common type. */
export const toCommon = (name: string) => (a: readonly SqlType[]): readonly SqlType[] | TypeMismatch => {
  let t: SqlType = 'NULL';
  for (const x of a) {
    const c = commonType(t, x);
    if (c === undefined) return mismatch(`cannot compare ${a.join(' and ')} in ${name}`);
    t = c;
  }
  return a.map(() => t);
};

/** Arguments of the wanted types (numeric types accept each other; the last wanted type repeats), result `res`. */
export const expect = (name: string, want: SqlType[], res: SqlType) => (a: readonly SqlType[]): SqlType | TypeMismatch => {
  for (let i = 0; i < a.length; i++) {
    const w = want[Math.min(i, want.length - 1)]!;
    const t = a[i]!;
    if (t === 'NULL' || t === w || (isNumeric(t) && isNumeric(w))) continue;
    return mismatch(`${name} expects ${want.join(', ')}, got ${a.join(', ')}`);
  }
  return res;
};
