/**
 * Text of floating-point values. CSV, JSON and Markdown write the exact
 * form: the shortest digits that read back as the same value (what JS
 * `toExponential()` gives; for FLOAT, the shortest that reads back as the
 * same 32-bit float), laid out as DuckDB writes doubles, so eddy's CSV of a
 * query matches DuckDB's: plain notation for exponents -4..15 with at least
 * one decimal (`100.0`, `0.0001`), scientific otherwise with a sign and two
 * exponent digits (`1e-10`, `1.2e+30`), `-0.0`, `nan`, `inf`, `-inf`.
 * The table view rounds to 10 significant digits but keeps every integer
 * digit below 1e16 and two decimals where they fit (`229577310901.2`,
 * `0.3333333333`), so a shortened value is never a different magnitude
 * (`1e-10`, not `0`).
 */

/** Significant digits the table view keeps (more when the integer part is longer). */
export const TABLE_DIGITS = 10;

/** How a floating-point value is written: `exact` reads back as the same value; `short` is for the table view. */
export type DoubleStyle = 'exact' | 'short';

/** The digits (no dot, no trailing zeros) and decimal exponent of a finite non-zero number's `toExponential` text. */
function splitExponential(text: string): { digits: string; exp: number } {
  const [mantissa, exp] = text.split('e') as [string, string];
  const digits = mantissa.replace('-', '').replace('.', '').replace(/0+$/, '');
  return { digits: digits === '' ? '0' : digits, exp: Number(exp) };
}

/** Lays out digits d₀d₁d₂… × 10^exp as DuckDB does (see the header). */
function layout(negative: boolean, digits: string, exp: number): string {
  const sign = negative ? '-' : '';
  if (exp < -4 || exp >= 16) {
    const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const whole = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const fraction = digits.slice(exp + 1);
  return `${sign}${whole}.${fraction === '' ? '0' : fraction}`;
}

/** The shortest `toExponential` text that reads back as the same 32-bit float. */
function shortestFloat32(x: number): string {
  for (let p = 1; p < 9; p++) {
    const text = x.toExponential(p - 1);
    if (Math.fround(Number(text)) === x) return text;
  }
  return x.toExponential(8);
}

/**
 * Text of a DOUBLE (or, with `single`, a FLOAT) value; see the header for
 * the two styles. Non-finite values are `nan`, `inf` and `-inf`.
 */
export function doubleText(x: number, style: DoubleStyle = 'exact', single = false): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  const negative = x < 0 || Object.is(x, -0);
  if (x === 0) return negative ? '-0.0' : '0.0';
  const exact = splitExponential(single ? shortestFloat32(x) : x.toExponential());
  if (style === 'exact' || exact.digits.length <= TABLE_DIGITS) return layout(negative, exact.digits, exact.exp);
  // Below 1e16 every integer digit stays, with two decimals; otherwise 10 significant digits.
  const keep = exact.exp >= 0 && exact.exp < 16 ? Math.max(TABLE_DIGITS, exact.exp + 3) : TABLE_DIGITS;
  if (exact.digits.length <= keep) return layout(negative, exact.digits, exact.exp);
  const rounded = splitExponential(x.toExponential(keep - 1));
  return layout(negative, rounded.digits, rounded.exp);
}

/**
 * A double as a JSON value: the exact text (a valid JSON number); NaN and
 * the infinities, which JSON cannot write as numbers, are the strings
 * `"NaN"`, `"Infinity"` and `"-Infinity"`.
 */
export function doubleJson(x: number, single = false): string {
  return Number.isFinite(x) ? doubleText(x, 'exact', single) : JSON.stringify(String(x));
}
