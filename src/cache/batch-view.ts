/**
 * Projected views of stored blocks: a RecordBatch over some of a block's
 * columns (the same Data objects, no copy), built for every block a cache
 * source reads.
 *
 * Decision: the views are assembled without Arrow's RecordBatch constructor.
 * `new RecordBatch(schema, data)` always runs `ensureSameLengthData`, which
 * clones every field and merges metadata maps into a new Schema
 * (`schema.assign`): about 15–40 µs per batch in apache-arrow 21 — a cached
 * count() over 538 blocks once spent more CPU there than on its rows. A
 * projector instead keeps one Schema and Struct type per run of blocks whose
 * column types are the same objects (rebuilt when a type differs, e.g. a
 * block with a merged dictionary), and makes each view from the
 * RecordBatch prototype with that schema and a Struct Data of the columns
 * (under 1 µs). The view has exactly the state the constructor leaves
 * (`schema`, `data`, `_metadata`; dictionaries are computed lazily by the
 * getter), so every RecordBatch method works on it; the columns all have the
 * block's length, which is what `ensureSameLengthData` would have checked.
 * test/cache/batch-view.test.ts pins this against the Arrow version in use.
 */
import { Data, Field, RecordBatch, Schema, Struct, type DataType } from 'apache-arrow';

/** The Struct's validity: none (what makeData gives a Struct without a bitmap). */
const NO_BITMAP = new Uint8Array(0);

/** Builds views of blocks with the given column names (one projector per source subtask). */
export class BatchProjector {
  private types: DataType[] | undefined;
  private schema: Schema | undefined;
  private struct: Struct | undefined;

  constructor(private readonly names: readonly string[]) {}

  /** A batch of `columns` (named after the projector's names), `length` rows, sharing the columns' Data. */
  view(columns: readonly Data[], length: number): RecordBatch {
    if (!this.sameTypes(columns)) this.rebuild(columns);
    const data = new Data(this.struct!, 0, length, 0, [undefined, undefined, NO_BITMAP], columns as Data[]);
    const batch = Object.create(RecordBatch.prototype) as { schema: Schema; data: Data; _metadata: Map<string, string> };
    batch.schema = this.schema!;
    batch.data = data;
    batch._metadata = new Map();
    return batch as unknown as RecordBatch;
  }

  private sameTypes(columns: readonly Data[]): boolean {
    const t = this.types;
    if (t === undefined || t.length !== columns.length) return false;
    for (let i = 0; i < t.length; i++) if (t[i] !== columns[i]!.type) return false;
    return true;
  }

  private rebuild(columns: readonly Data[]): void {
    const fields = columns.map((c, i) => new Field(this.names[i]!, c.type, true));
    this.types = columns.map((c) => c.type);
    this.schema = new Schema(fields);
    this.struct = new Struct(fields);
  }
}
