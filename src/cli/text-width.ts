/**
 * Terminal display width of text: East Asian wide characters and most emoji
 * take two columns, combining marks none. Enough to keep tables aligned.
 */

function isWide(cp: number): boolean {
  return (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) || (cp >= 0xac00 && cp <= 0xd7a3)
    || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) || (cp >= 0xffe0 && cp <= 0xffe6)
    || (cp >= 0x1f300 && cp <= 0x1f64f) || (cp >= 0x1f900 && cp <= 0x1f9ff) || (cp >= 0x20000 && cp <= 0x3fffd);
}

function isZeroWidth(cp: number): boolean {
  return (cp >= 0x300 && cp <= 0x36f) || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0xfe00 && cp <= 0xfe0f) || cp === 0x20e3;
}

function charWidth(cp: number): number {
  return isZeroWidth(cp) ? 0 : isWide(cp) ? 2 : 1;
}

/** Columns `s` takes in a terminal. */
export function displayWidth(s: string): number {
  // eslint-disable-next-line no-control-regex
  if (/^[\u0020-\u007e]*$/.test(s)) return s.length; // ASCII fast path
  let w = 0;
  for (const ch of s) w += charWidth(ch.codePointAt(0)!);
  return w;
}

/** `s` cut to at most `width` columns, ending in '…' when cut. */
export function cutToWidth(s: string, width: number): string {
  if (displayWidth(s) <= width) return s;
  let out = '';
  let w = 0;
  for (const ch of s) {
    const cw = charWidth(ch.codePointAt(0)!);
    if (w + cw > width - 1) break;
    out += ch;
    w += cw;
  }
  return `${out}…`;
}

/** `s` padded with spaces on the right to `width` columns. */
export function padEnd(s: string, width: number): string {
  return s + ' '.repeat(Math.max(0, width - displayWidth(s)));
}

/** `s` padded with spaces on the left to `width` columns. */
export function padStart(s: string, width: number): string {
  return ' '.repeat(Math.max(0, width - displayWidth(s))) + s;
}
