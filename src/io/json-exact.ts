/**
 * Exact JSON integers. JSON.parse turns every number into a double, so
 * 9007199254740993 reads as ...992. A line with a run of 16 or more digits
 * (the only way to write an integer beyond 2^53) is parsed with its large
 * integer literals swapped for placeholder strings and revived as BigInt;
 * other lines take the plain JSON.parse path, so the cost is paid only where
 * it matters. `stringifyExact` writes such values back without losing digits.
 */

const LIMIT = BigInt(Number.MAX_SAFE_INTEGER);
// A placeholder no JSON text produces by accident: NUL is never raw in a JSON string.
const MARK = `\u0000eddy-int-${Math.random().toString(36).slice(2)}:`;
const MARK_JSON = JSON.stringify(MARK).slice(1, -1);

function isNumberChar(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46 || c === 101 || c === 69;
}

/** JSON.parse, but integers beyond ±2^53 become exact BigInts. */
export function parseJsonExact(text: string): unknown {
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  const big: bigint[] = [];
  let out = '', last = 0, inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) { inString = true; continue; }
    if (c !== 45 && (c < 48 || c > 57)) continue;
    let j = i + 1;
    while (j < text.length && isNumberChar(text.charCodeAt(j))) j++;
    const token = text.slice(i, j);
    if (/^-?[1-9]\d{15,}$/.test(token)) {
      const v = BigInt(token);
      if (v > LIMIT || v < -LIMIT) {
        out += `${text.slice(last, i)}"${MARK_JSON}${big.length}"`;
        big.push(v);
        last = j;
      }
    }
    i = j - 1;
  }
  if (big.length === 0) return JSON.parse(text);
  out += text.slice(last);
  return JSON.parse(out, (_k, v: unknown) => (typeof v === 'string' && v.startsWith(MARK) ? big[Number(v.slice(MARK.length))] : v));
}

/** JSON.stringify that writes BigInts as plain integer literals. */
export function stringifyExact(v: unknown): string {
  if (typeof v === 'bigint') return String(v);
  const text = JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${MARK}${x}` : x));
  return text.includes(MARK_JSON) ? text.replace(new RegExp(`"${MARK_JSON.replace(/\\/g, '\\\\')}(-?\\d+)"`, 'g'), '$1') : text;
}
