/**
 * One dictionary for a dictionary-encoded column whose batches came with several: the batches keep
 * their codes (remapped when the dictionaries differ) and all point at the same dictionary object.
 *
 * Why (issue #10): an Arrow IPC file is read one reader per partition, and each reader builds its own
 * dictionary objects from the file's one dictionary batch, so `collect()` of a file saw as many
 * dictionaries per column as partitions. It decoded such columns to plain Utf8 (api/result.ts): TPC-H
 * SF 1 loaded from the suite's Arrow files lost every dictionary the file has (l_returnflag,
 * c_mktsegment, p_brand, ...), so the tables registered from that result grouped, filtered and joined
 * on strings, and held a string copy per row. Keeping the file's encoding is what DuckDB does with its
 * own storage; the operators' fast paths (codes compared or hashed instead of bytes) need one
 * dictionary object per column, which this gives.
 *
 * How: dictionaries are compared by content first (offsets and bytes; the common case — the same
 * dictionary batch read twice — costs one pass over the dictionary's bytes and no row work): equal
 * ones are replaced by the first, the batches' code buffers are reused as they are. Dictionaries that
 * differ are merged (each distinct string once, in first-seen order) and each batch's codes remapped
 * through a per-dictionary table: one pass over the rows, no strings built per row.
 */
import type { Data, Dictionary, Vector } from 'apache-arrow';
import { dictionaryData } from './arrow-build.js';
import { dictionaryValues, mergeDictionaries, remapCodes } from './batch-concat.js';

/** Whether two Utf8 dictionaries hold the same strings in the same order. */
export function sameStrings(a: Data, b: Data): boolean {
  if (a.length !== b.length) return false;
  const ao = a.valueOffsets as Int32Array;
  const bo = b.valueOffsets as Int32Array;
  const a0 = ao[0]!;
  const b0 = bo[0]!;
  for (let k = 1; k <= a.length; k++) if (ao[k]! - a0 !== bo[k]! - b0) return false;
  const av = a.values as Uint8Array;
  const bv = b.values as Uint8Array;
  const n = ao[a.length]! - a0;
  for (let i = 0; i < n; i++) if (av[a0 + i] !== bv[b0 + i]) return false;
  return true;
}

/**
 * `parts` (Dictionary<Utf8> columns of one type) over one dictionary object: the input array itself
 * when they already share one; otherwise new Data, each with the first part's type.
 */
export function unifyDictionaries(parts: readonly Data[]): readonly Data[] {
  const first = parts[0];
  if (first === undefined || parts.every((p) => p.dictionary === first.dictionary)) return parts;
  const distinct = new Map<Vector | undefined, Data>();
  for (const p of parts) if (!distinct.has(p.dictionary)) distinct.set(p.dictionary, dictionaryValues(p));
  const firstValues = distinct.get(first.dictionary)!;
  const type = first.type as Dictionary;
  if ([...distinct.values()].every((d) => d === firstValues || sameStrings(d, firstValues))) {
    return parts.map((p) => (p.dictionary === first.dictionary ? p
      : dictionaryData(type, p.length, p.nullCount, p.nullBitmap, p.values as Int32Array, first.dictionary!, p.offset)));
  }
  // Different contents: a merged dictionary and a code table per source dictionary (as concatData does).
  const { dictionary, remaps } = mergeDictionaries(parts);
  return parts.map((p) => {
    // Arrow slices value buffers but not validity bitmaps: codes count from 0, the part's offset stays for its bitmap.
    const codes = new Int32Array(p.length);
    remapCodes(p, remaps.get(p.dictionary)!, codes, 0);
    return dictionaryData(type, p.length, p.nullCount, p.nullBitmap, codes, dictionary, p.offset);
  });
}
