/**
 * Delimiter sniffing for CSV files read without a `delimiter` option, as
 * DuckDB's sniffer does for the common cases: among `,` `;` `|` and tab, the
 * one that splits the first lines (up to 20, quotes respected) into the same
 * number (> 1) of fields on every line wins; ties go to the one with more
 * fields, then to the order above. When none is consistent, `,` (the
 * default) is kept and the reader reports what it finds. Lines dropped by
 * read_csv's `skip` are not looked at.
 */
import { open } from 'node:fs/promises';

const CANDIDATES = [',', ';', '|', '\t'] as const;
const SAMPLE_BYTES = 64 * 1024;
const SAMPLE_LINES = 20;

/** The delimiter the first lines of `path` use (`,` when unclear or unreadable; the reader then reports the error). */
export async function sniffDelimiter(path: string, quote = '"', skipLines = 0): Promise<string> {
  let text: string;
  try {
    const h = await open(path, 'r');
    try {
      const buf = Buffer.alloc(SAMPLE_BYTES);
      const { bytesRead } = await h.read(buf, 0, SAMPLE_BYTES, 0);
      text = buf.subarray(0, bytesRead).toString('utf8');
    } finally {
      await h.close();
    }
  } catch {
    return ',';
  }
  return delimiterOf(dropLines(text, skipLines), quote);
}

/** The text after its first `n` raw lines (LF, CRLF or CR end one). */
function dropLines(text: string, n: number): string {
  let i = 0;
  for (let k = 0; k < n && i < text.length; k++) {
    while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
    if (text[i] === '\r' && text[i + 1] === '\n') i++;
    i++;
  }
  return text.slice(i);
}

/** The delimiter of a sample of CSV text (exported for tests). */
export function delimiterOf(text: string, quote = '"'): string {
  const lines = sampleLines(text, quote);
  let best: { delim: string; fields: number } | undefined;
  for (const d of CANDIDATES) {
    const counts = lines.map((l) => fieldCount(l, d, quote));
    const n = counts[0];
    if (n === undefined || n < 2 || counts.some((c) => c !== n)) continue;
    if (best === undefined || n > best.fields) best = { delim: d, fields: n };
  }
  return best?.delim ?? ',';
}

/** Whole non-empty lines of the sample (LF, CRLF or CR ends one, except inside quotes; the last, maybe cut, line is dropped). */
function sampleLines(text: string, quote: string): string[] {
  const out: string[] = [];
  let start = 0, quoted = false;
  for (let i = 0; i < text.length && out.length < SAMPLE_LINES; i++) {
    const c = text[i]!;
    if (c === quote) quoted = !quoted;
    else if ((c === '\n' || c === '\r') && !quoted) {
      const line = text.slice(start, i);
      if (line.length > 0) out.push(line);
      start = i + 1;
    }
  }
  if (out.length === 0 && start < text.length) out.push(text.slice(start));
  return out;
}

function fieldCount(line: string, delim: string, quote: string): number {
  let n = 1, quoted = false;
  for (const c of line) {
    if (c === quote) quoted = !quoted;
    else if (c === delim && !quoted) n++;
  }
  return n;
}
