/**
 * The same generated TPC-H data as Arquero tables, in two layouts: wrapped
 * Arrow (`aq.fromArrow`, zero-copy) and flat JS columns (Arquero's native
 * layout). Built once per run; never timed.
 */
import * as aq from 'arquero';
import { Type, type Data, type Table as ArrowTable } from 'apache-arrow';

/** An Arquero table. */
export type AqTable = ReturnType<typeof aq.fromArrow>;

/** Wraps Arrow tables as Arquero tables (zero-copy; not timed). */
export function arqueroTables(tables: Readonly<Record<string, ArrowTable>>, names: readonly string[]): Record<string, AqTable> {
  const out: Record<string, AqTable> = {};
  for (const n of names) out[n] = aq.fromArrow(tables[n] as unknown as Parameters<typeof aq.fromArrow>[0]);
  return out;
}

/**
 * Arquero over flat JS columns — its native representation — instead of
 * Arrow: Float64Array/Int32Array for numbers, Float64Array of epoch ms for
 * DATE (the same values fromArrow yields), string arrays for dictionary
 * columns. Free-text Utf8 columns are left out (no benchmark query reads
 * them). Built once, not timed.
 */
export function arqueroFlatTables(tables: Readonly<Record<string, ArrowTable>>, names: readonly string[]): Record<string, AqTable> {
  const out: Record<string, AqTable> = {};
  for (const n of names) {
    const t = tables[n]!;
    const cols: Record<string, unknown> = {};
    t.schema.fields.forEach((f, i) => {
      const chunks = t.batches.map((b) => b.data.children[i]! as Data);
      switch (f.type.typeId) {
        case Type.Int: cols[f.name] = flatten(chunks, t.numRows, (d, j) => (d.values as Int32Array)[d.offset + j]!, Int32Array); break;
        case Type.Float: cols[f.name] = flatten(chunks, t.numRows, (d, j) => (d.values as Float64Array)[d.offset + j]!, Float64Array); break;
        case Type.Date: cols[f.name] = flatten(chunks, t.numRows, (d, j) => (d.values as Int32Array)[d.offset + j]! * 86_400_000, Float64Array); break;
        case Type.Dictionary: {
          const out = new Array<string>(t.numRows);
          let k = 0;
          for (const d of chunks) {
            const dict = d.dictionary!.toArray() as string[];
            const codes = d.values as Int32Array;
            for (let j = 0; j < d.length; j++) out[k++] = dict[codes[d.offset + j]!]!;
          }
          cols[f.name] = out;
          break;
        }
        default: break;
      }
    });
    out[n] = aq.table(cols);
  }
  return out;
}

function flatten<T extends Int32Array | Float64Array>(chunks: readonly Data[], n: number, at: (d: Data, j: number) => number, Ctor: new (n: number) => T): T {
  const out = new Ctor(n);
  let k = 0;
  for (const d of chunks) for (let j = 0; j < d.length; j++) out[k++] = at(d, j);
  return out;
}
