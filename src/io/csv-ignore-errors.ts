/**
 * read_csv's `ignore_errors`: a record with a value its column's type cannot
 * read is dropped, as DuckDB does. The tokenizer already drops records with
 * the wrong number of fields; this pass checks the columns the scan reads
 * (as DuckDB: with projection pushdown, a bad value in a column the query
 * does not read keeps its row, so `count(*)` counts it) and compacts the
 * round to the good records before the column decoders (csv-columns.ts) see
 * it. Only runs when the option is on.
 */
import type { SqlType } from '../relnode/types.js';
import type { CsvRound } from './csv-tokenizer.js';
import { isNanText, parseBigInt64, parseBool, parseDate, parseDouble, parseInt32, parseInt64Fast, parseTimestamp } from './infer.js';

/** Can a non-NULL field b[s, e) be read as `type`? (The decoders' rules, without building a value.) */
function readable(type: SqlType, b: Uint8Array, s: number, e: number): boolean {
  switch (type) {
    case 'INTEGER': return !Number.isNaN(parseInt32(b, s, e));
    case 'DATE': return !Number.isNaN(parseDate(b, s, e));
    case 'TIMESTAMP': return !Number.isNaN(parseTimestamp(b, s, e));
    case 'DOUBLE': return !Number.isNaN(parseDouble(b, s, e)) || isNanText(b, s, e);
    case 'BOOLEAN': return parseBool(b, s, e) >= 0;
    case 'BIGINT': {
      const v = parseInt64Fast(b, s, e);
      return v === Infinity ? parseBigInt64(b, s, e) !== undefined : !Number.isNaN(v);
    }
    case 'VARCHAR': case 'NULL': return true;
  }
}

function isNullField(buf: Uint8Array, s: number, e: number, flag: number, nullBytes: Uint8Array | null): boolean {
  if (s === e) return true;
  if (nullBytes === null || flag !== 0 || e - s !== nullBytes.length) return false;
  for (let i = 0; i < nullBytes.length; i++) if (buf[s + i] !== nullBytes[i]) return false;
  return true;
}

/** The round without the records that have a value some column's type cannot read (the same round when all are good). */
export function dropBadRecords(r: CsvRound, types: readonly SqlType[], nullBytes: Uint8Array | null): CsvRound {
  const { buf, n, stride, starts, ends, flags, lines } = r;
  let keep: Uint8Array | null = null;
  let kept = n;
  for (let c = 0; c < types.length; c++) {
    const t = types[c]!;
    if (t === 'VARCHAR' || t === 'NULL') continue;
    for (let i = 0, k = c; i < n; i++, k += stride) {
      if (keep !== null && keep[i] === 0) continue;
      const s = starts[k]!, e = ends[k]!;
      if (isNullField(buf, s, e, flags[k]!, nullBytes) || readable(t, buf, s, e)) continue;
      keep ??= new Uint8Array(n).fill(1);
      keep[i] = 0;
      kept--;
    }
  }
  if (keep === null) return r;
  const os = new Int32Array(kept * stride), oe = new Int32Array(kept * stride), of = new Uint8Array(kept * stride), ol = new Float64Array(kept);
  for (let i = 0, j = 0; i < n; i++) {
    if (keep[i] === 0) continue;
    os.set(starts.subarray(i * stride, (i + 1) * stride), j * stride);
    oe.set(ends.subarray(i * stride, (i + 1) * stride), j * stride);
    of.set(flags.subarray(i * stride, (i + 1) * stride), j * stride);
    ol[j] = lines[i]!;
    j++;
  }
  return { buf, n: kept, stride, starts: os, ends: oe, flags: of, lines: ol };
}
