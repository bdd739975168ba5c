/**
 * A guard run on raw IPC metadata (flatbuffers) before apache-arrow decodes
 * it: every vector and string that apache-arrow will turn into an array must
 * fit inside the metadata bytes. A damaged length field otherwise makes it
 * allocate an array of billions of entries and the process dies out of
 * memory instead of failing. Checked: the Message header (record batch and
 * dictionary batch nodes, buffers and variadic counts; the schema's fields,
 * their names, children and metadata) and the file Footer (schema, blocks).
 * Field indices are those of the Arrow format's Message.fbs, Schema.fbs and File.fbs.
 */

/** Thrown with what is wrong; callers add the file and position. */
export class FlatbufferRangeError extends Error {}

class Reader {
  private readonly dv: DataView;
  constructor(private readonly b: Uint8Array) {
    this.dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }

  private u32(at: number): number {
    if (at < 0 || at + 4 > this.b.length) throw new FlatbufferRangeError(`offset ${at} outside the ${this.b.length}-byte metadata`);
    return this.dv.getUint32(at, true);
  }

  root(): number {
    return this.u32(0);
  }

  /** Position of field `i`'s value in table `t`, or 0 when absent. */
  field(t: number, i: number): number {
    const vt = t - this.dv.getInt32(this.checked(t, 4), true);
    const vtSize = this.dv.getUint16(this.checked(vt, 2), true);
    if (4 + 2 * i + 2 > vtSize) return 0;
    const off = this.dv.getUint16(this.checked(vt + 4 + 2 * i, 2), true);
    return off === 0 ? 0 : this.checked(t + off, 1);
  }

  /** Target of the offset stored in field `i` of table `t`, or 0 when absent. */
  ref(t: number, i: number): number {
    const at = this.field(t, i);
    return at === 0 ? 0 : this.checked(at + this.u32(at), 4);
  }

  /** Checks the vector (or string) in field `i` fits; returns its element positions' start and length. */
  vector(t: number, i: number, elemSize: number): { start: number; length: number } {
    const v = this.ref(t, i);
    if (v === 0) return { start: 0, length: 0 };
    const length = this.u32(v);
    if (v + 4 + length * elemSize > this.b.length) throw new FlatbufferRangeError(`a vector of ${length} entries runs past the ${this.b.length}-byte metadata`);
    return { start: v + 4, length };
  }

  /** Table positions of a vector of tables in field `i` of table `t`. */
  tables(t: number, i: number): number[] {
    const { start, length } = this.vector(t, i, 4);
    return Array.from({ length }, (_, k) => this.checked(start + 4 * k + this.u32(start + 4 * k), 4));
  }

  private checked(at: number, size: number): number {
    if (at < 0 || at + size > this.b.length) throw new FlatbufferRangeError(`offset ${at} outside the ${this.b.length}-byte metadata`);
    return at;
  }
}

function keyValues(r: Reader, t: number, i: number): void {
  for (const kv of r.tables(t, i)) {
    r.vector(kv, 0, 1);
    r.vector(kv, 1, 1);
  }
}

function fieldTable(r: Reader, f: number, depth: number): void {
  if (depth > 64) throw new FlatbufferRangeError('fields nested over 64 deep');
  r.vector(f, 0, 1); // name
  for (const c of r.tables(f, 5)) fieldTable(r, c, depth + 1);
  keyValues(r, f, 6);
}

function schemaTable(r: Reader, s: number): void {
  for (const f of r.tables(s, 1)) fieldTable(r, f, 0);
  keyValues(r, s, 2);
  r.vector(s, 3, 8);
}

function recordBatchTable(r: Reader, rb: number): void {
  r.vector(rb, 1, 16); // nodes
  r.vector(rb, 2, 16); // buffers
  r.vector(rb, 4, 8); // variadicBufferCounts
}

/** Checks a Message flatbuffer (the bytes after a message's length prefix). */
export function guardMessage(bytes: Uint8Array): void {
  const r = new Reader(bytes);
  const m = r.root();
  const typeAt = r.field(m, 1);
  const type = typeAt === 0 ? 0 : bytes[typeAt]!;
  const header = r.ref(m, 2);
  keyValues(r, m, 4);
  if (header === 0) return;
  if (type === 1) schemaTable(r, header);
  else if (type === 2) { const data = r.ref(header, 1); if (data !== 0) recordBatchTable(r, data); }
  else if (type === 3) recordBatchTable(r, header);
}

/** Checks a Footer flatbuffer (the bytes before the footer length and the closing magic). */
export function guardFooter(bytes: Uint8Array): void {
  const r = new Reader(bytes);
  const f = r.root();
  const schema = r.ref(f, 1);
  if (schema !== 0) schemaTable(r, schema);
  r.vector(f, 2, 24);
  r.vector(f, 3, 24);
  keyValues(r, f, 4);
}
