/**
 * Rendering result values as sqllogictest strings: by the declared type
 * letter (SQLite rules) or by the value's own type (DuckDB / DataFusion
 * rules, where the letter only counts columns).
 */

/** The coarse type of a result column, as the engine reports it. */
export type ColumnKind = 'integer' | 'float' | 'text' | 'boolean' | 'date' | 'timestamp' | 'null' | 'other';

/** A result value: dates and timestamps arrive already rendered as ISO text. */
export type Value = null | number | bigint | string | boolean;

/** Bytes outside the printable ASCII range are shown as `@` (SQLite's runner). */
function printable(s: string): string {
  return s.replace(/[^\x20-\x7e]/g, '@');
}

/** SQLite's conversion of text to an integer: the leading integer prefix, else 0. */
function textToInteger(s: string): string {
  const m = /^\s*([+-]?\d+)/.exec(s);
  if (!m) return '0';
  return BigInt(m[1]!).toString();
}

/** SQLite's conversion of text to a real: the leading numeric prefix, else 0. */
function textToReal(s: string): number {
  const m = /^\s*([+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)/.exec(s);
  return m ? Number(m[1]) : 0;
}

/** Truncates a double toward zero and prints it as an integer (no `-0`, no exponent). */
function truncToInteger(x: number): string {
  if (!Number.isFinite(x)) return x > 0 ? '9223372036854775807' : x < 0 ? '-9223372036854775808' : '0';
  const t = Math.trunc(x);
  if (t === 0) return '0';
  return Math.abs(t) < 1e21 ? String(t) : BigInt(t).toString();
}

/** A double the way SQLite prints it as text (`%!.15g`). */
function realAsText(x: number): string {
  if (Number.isInteger(x) && Math.abs(x) < 1e15) return `${x}.0`;
  const s = x.toPrecision(15);
  // Drop trailing zeros of the mantissa, as %g does.
  return s.includes('e') ? s.replace(/\.?0+e/, 'e') : s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

/**
 * Renders a value by its column's declared type letter (SQLite's runner):
 * NULL → `NULL`; I → integer (reals truncate toward zero); R → three
 * decimals; T → text with `(empty)` for '' and `@` for unprintable bytes.
 * Other letters (B, D, P, ?) render by the value's own type.
 */
export function renderByLetter(v: Value, letter: string, kind: ColumnKind): string {
  if (v === null) return 'NULL';
  switch (letter) {
    case 'I':
      if (typeof v === 'bigint') return v.toString();
      if (typeof v === 'number') return truncToInteger(v);
      if (typeof v === 'boolean') return v ? '1' : '0';
      return textToInteger(v);
    case 'R': {
      const x = typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : typeof v === 'boolean' ? (v ? 1 : 0) : textToReal(v);
      return x.toFixed(3);
    }
    case 'T': {
      if (typeof v === 'string') return v === '' ? '(empty)' : printable(v);
      if (typeof v === 'number' && kind === 'float') return realAsText(v);
      if (typeof v === 'boolean') return v ? 'true' : 'false';
      return String(v);
    }
    default:
      return renderNatural(v, kind);
  }
}

/**
 * Renders a value by its own type (DuckDB / DataFusion runners): integers
 * plainly, doubles in shortest round-trip form, booleans as true/false,
 * '' as `(empty)`, NULL as `NULL`.
 */
export function renderNatural(v: Value, kind: ColumnKind): string {
  if (v === null) return 'NULL';
  if (typeof v === 'string') return v === '' ? '(empty)' : v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'bigint') return v.toString();
  if (kind === 'float') {
    if (Number.isNaN(v)) return 'NaN';
    if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
    return Object.is(v, -0) ? '-0.0' : String(v);
  }
  return String(v);
}
