/**
 * Literal generation for the random query generator: typed literals drawn
 * from a column's sample values (so filters are selective) or from small
 * generic pools, LIKE patterns cut from real strings, and the rendering rules
 * that keep DuckDB from typing a literal differently from eddy (a fractional
 * literal outside a comparison is written as a DOUBLE, since DuckDB would
 * read `1.5` as an exact DECIMAL).
 */
import { expr, PREC, type Expr, type T } from './model.js';
import type { Rng } from './prng.js';

const INTS = [0, 1, 2, 3, 4, 5, 7, 10, 12, 25, 42, 50, 100, 1000, -1, -5];
const WORDS = [
  '', 'a', 'A', 'e', 'FURNITURE', 'BUILDING', 'AUTOMOBILE', 'Brand#23', 'MED BOX', 'SM CASE', 'R', 'N', 'O', 'F', 'P',
  '1-URGENT', '5-LOW', 'AIR', 'MAIL', 'TRUCK', 'GERMANY', 'ASIA', 'EUROPE', 'apple', 'Banana', 'x', 'zz', "it's",
  'Customer#000000010', 'Supplier#000000007', 'Clerk#000000100', 'the', 'carefully', 'blue', 'green',
];
const DAY_MS = 86_400_000;
const FIRST_DAY = Date.UTC(1992, 0, 1) / DAY_MS;
const LAST_DAY = Date.UTC(1998, 11, 31) / DAY_MS;

/** A SQL string literal. */
export function quote(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

/** 'YYYY-MM-DD' of a day number. */
export function isoDay(days: number): string {
  return new Date(days * DAY_MS).toISOString().slice(0, 10);
}

/** The day number of 'YYYY-MM-DD'. */
export function dayOf(iso: string): number {
  return Math.round(Date.parse(`${iso}T00:00:00Z`) / DAY_MS);
}

function atom(type: T, text: string): Expr {
  return expr(type, text.startsWith('-') ? PREC.neg : PREC.atom, [text], { literal: true });
}

/** Where a literal goes: a comparison operand may stay a plain decimal, arithmetic needs a DOUBLE. */
export type LiteralUse = 'compare' | 'value';

/** Renders a raw value of a type as a literal expression. */
export function literalOf(rng: Rng, type: T, v: unknown, use: LiteralUse): Expr {
  if (v === null || v === undefined) return expr(type, PREC.atom, ['NULL'], { literal: true });
  switch (type) {
    case 'int': return atom(type, String(v));
    case 'double': {
      const n = Number(v);
      const text = String(n);
      if (use === 'compare' || Number.isInteger(n)) {
        // An integral double literal is an INTEGER in both engines: keep it a DOUBLE where the type matters.
        if (use === 'value' && Number.isInteger(n)) return expr(type, PREC.atom, [`CAST(${text} AS DOUBLE)`], { literal: true });
        return atom(type, text);
      }
      return rng.chance(0.5)
        ? expr(type, PREC.atom, [`CAST(${text} AS DOUBLE)`], { literal: true })
        : expr(type, PREC.postfix, [n < 0 ? `(${text})::DOUBLE` : `${text}::DOUBLE`], { literal: true });
    }
    case 'varchar': return atom(type, quote(String(v)));
    case 'date': return atom(type, use === 'compare' && rng.chance(0.25) ? quote(String(v)) : `DATE ${quote(String(v))}`);
    case 'bool': return atom(type, v ? 'TRUE' : 'FALSE');
  }
}

/** A generic raw value of a type (no column in mind). */
export function genericValue(rng: Rng, type: T): unknown {
  switch (type) {
    case 'int': return rng.pick(INTS);
    case 'double': return rng.chance(0.3) ? rng.pick(INTS) + 0.5 : rng.int(-100000, 1000000) / 100;
    case 'varchar': return rng.pick(WORDS);
    case 'date': return isoDay(rng.chance(0.9) ? rng.int(FIRST_DAY, LAST_DAY) : rng.int(FIRST_DAY + 9000, FIRST_DAY + 12000));
    case 'bool': return rng.chance(0.5);
  }
}

/** A raw value for a column: mostly one of its samples, sometimes nudged or generic. */
export function valueFor(rng: Rng, type: T, samples: readonly unknown[] | undefined): unknown {
  const nonNull = samples?.filter((v) => v !== null) ?? [];
  if (nonNull.length === 0 || rng.chance(0.15)) return genericValue(rng, type);
  const v = rng.pick(nonNull);
  if (rng.chance(0.2)) {
    if (type === 'int') return Number(v) + rng.pick([-1, 1]);
    if (type === 'double') return Math.round((Number(v) + rng.pick([-0.5, 0.01, 1])) * 100) / 100;
    if (type === 'date') return isoDay(dayOf(String(v)) + rng.int(-40, 40));
  }
  return v;
}

/** A LIKE pattern that often matches some of the samples. */
export function likePattern(rng: Rng, samples: readonly unknown[] | undefined): string {
  const strs = (samples ?? []).filter((v): v is string => typeof v === 'string' && v.length > 0);
  if (strs.length === 0 || rng.chance(0.1)) return rng.pick(['%', '_', 'a%', '%e%', '%#%', '']);
  const s = rng.pick(strs);
  const a = rng.int(0, Math.max(0, s.length - 1));
  const b = Math.min(s.length, a + rng.int(1, 6));
  let core = s.slice(a, b).replace(/[%_]/g, '_');
  if (core.length > 1 && rng.chance(0.3)) {
    const i = rng.int(0, core.length - 1);
    core = core.slice(0, i) + '_' + core.slice(i + 1);
  }
  return rng.weighted([
    [4, `%${core}%`],
    [2, a === 0 ? `${core}%` : `%${core}%`],
    [2, b === s.length ? `%${core}` : `%${core}%`],
    [1, s],
    [1, `${s.slice(0, 2)}%${s.slice(-1)}`],
  ]);
}
