/**
 * The interned string id of each entry of a dictionary VARCHAR key column (KeyEncoder,
 * hash-encode.ts): a row's key word is then `ids[code]`, one read, and each distinct dictionary is
 * interned once. Cached per dictionary object (a WeakMap: a dropped batch's dictionary frees its
 * ids); a lookup table (join probe) caches misses too, so it is remade once the interner has grown.
 */
import { Type, type Data, type Utf8, type Vector } from 'apache-arrow';
import { dictionaryValues } from '../batch-concat.js';
import type { KeyKind } from './hash-encode.js';
import type { StringInterner } from './hash-interner.js';

interface DictRemap { ids: Int32Array; internerSize: number }

/** The per-dictionary id tables of one KeyEncoder (its interner). */
export class DictionaryIds {
  /** Per dictionary (made on first use: a WeakMap costs a few hundred bytes, and most encoders see none). */
  private insertRemaps: WeakMap<object, DictRemap> | null = null;
  private lookupRemaps: WeakMap<object, DictRemap> | null = null;

  constructor(private readonly interner: StringInterner) {}

  /**
   * Before interning the dictionaries of a batch's VARCHAR keys not seen yet: room in the interner for
   * all their entries at once (hash-interner.ts `reserve`), so the arena grows once, not by doubling
   * (a join's dictionary output: every entry of a build column is interned, hash-join's `dictionaryOutput`).
   */
  reserve(cols: readonly Data[], kinds: readonly KeyKind[]): void {
    let strings = 0;
    let bytes = 0;
    for (let c = 0; c < kinds.length; c++) {
      const d = cols[c]!;
      if (kinds[c] !== 'str' || d.typeId !== Type.Dictionary) continue;
      const v = d.dictionary as Vector | undefined;
      if (v === undefined || v.data.length !== 1 || this.insertRemaps?.has(v)) continue;
      const dict = v.data[0]!;
      const offs = dict.valueOffsets as Int32Array;
      strings += dict.length;
      bytes += offs[dict.length]! - offs[0]!; // arrow slices value offsets with the Data
    }
    if (strings > 0) this.interner.reserve(strings, bytes);
  }

  /**
   * Interned id per dictionary code: -1 for a string absent from the interner
   * (lookup), -2 for a NULL dictionary entry. Cached per dictionary object.
   */
  ids(d: Data, insert: boolean): Int32Array {
    const key = d.dictionary as object;
    const cache = insert ? (this.insertRemaps ??= new WeakMap()) : (this.lookupRemaps ??= new WeakMap());
    const hit = cache.get(key);
    if (hit && (insert || hit.internerSize === this.interner.size)) return hit.ids;
    const dict = dictionaryValues(d) as Data<Utf8>;
    const ids = new Int32Array(dict.length);
    const offs = dict.valueOffsets;
    const bytes = dict.values;
    const dictNulls = dict.nullCount > 0;
    for (let k = 0; k < dict.length; k++) {
      const b = dict.offset + k;
      if (dictNulls && ((dict.nullBitmap![b >> 3]! >> (b & 7)) & 1) === 0) { ids[k] = -2; continue; }
      ids[k] = this.interner.intern(bytes, offs[k]!, offs[k + 1]!, insert);
    }
    cache.set(key, { ids, internerSize: this.interner.size });
    return ids;
  }
}
