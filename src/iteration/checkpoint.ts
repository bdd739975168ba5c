/**
 * Checkpoint files: a run snapshot (exec/runtime/snapshot.ts) written
 * atomically to a directory, and the latest good one read back.
 *
 * Decision: eddy runs every subtask on one cooperative scheduler, so a
 * consistent cut exists between any two scheduler steps and is taken there
 * (the runtime's snapshot) instead of with barriers flowing through the
 * graph — ITERATION-SEMANTICS.md's "feedback records in flight" are simply
 * the feedback channels' queues at that instant. The cut is encoded with
 * Node's structured serializer (v8.serialize: states must be
 * structured-cloneable — plain data, Maps, Sets, typed arrays, bigints);
 * Arrow record batches anywhere inside are replaced by their Arrow IPC bytes.
 * A file is `EDDYCHK1`, a CRC-32 and a length, then the payload; it is
 * written to a temporary name, fsynced, renamed and the directory fsynced, so
 * a crash while writing leaves at most a stray temporary file: the latest
 * good checkpoint is never harmed. Reading takes the newest file that is
 * complete and whose checksum holds, falling back to older ones; the newest
 * `keep` checkpoints are kept.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { RecordBatch, Table, tableFromIPC, tableToIPC } from 'apache-arrow';
import type { RunSnapshot } from '../exec/runtime.js';
import { crc32 } from '../cache/checksum.js';
import { withEngineTypes } from '../cache/spill.js';

const MAGIC = Buffer.from('EDDYCHK1', 'latin1');
const HEADER = MAGIC.length + 4 + 8;
const NAME = /^chk-(\d{9})\.eddy$/;

/** A record batch inside an encoded snapshot. */
interface EncodedBatch { readonly __eddyArrowIpc: Uint8Array }

function isEncodedBatch(x: unknown): x is EncodedBatch {
  return typeof x === 'object' && x !== null && (x as EncodedBatch).__eddyArrowIpc instanceof Uint8Array;
}

/** Replaces record batches by their IPC bytes, deeply (arrays, plain objects, Maps, Sets). */
function encodeValue(x: unknown, seen: Map<object, unknown>): unknown {
  if (typeof x !== 'object' || x === null) return x;
  if (x instanceof RecordBatch) return { __eddyArrowIpc: tableToIPC(new Table([x]), 'stream') } satisfies EncodedBatch;
  if (ArrayBuffer.isView(x) || x instanceof ArrayBuffer || x instanceof Date || x instanceof RegExp) return x;
  const done = seen.get(x);
  if (done !== undefined) return done;
  if (Array.isArray(x)) { const out: unknown[] = []; seen.set(x, out); for (const v of x) out.push(encodeValue(v, seen)); return out; }
  if (x instanceof Map) { const out = new Map(); seen.set(x, out); for (const [k, v] of x) out.set(encodeValue(k, seen), encodeValue(v, seen)); return out; }
  if (x instanceof Set) { const out = new Set(); seen.set(x, out); for (const v of x) out.add(encodeValue(v, seen)); return out; }
  const out: Record<string, unknown> = {};
  seen.set(x, out);
  for (const [k, v] of Object.entries(x)) out[k] = encodeValue(v, seen);
  return out;
}

function decodeValue(x: unknown, seen: Map<object, unknown>): unknown {
  if (typeof x !== 'object' || x === null) return x;
  if (isEncodedBatch(x)) {
    const t = tableFromIPC(x.__eddyArrowIpc);
    if (t.batches.length !== 1) throw new Error(`a checkpointed batch holds ${t.batches.length} batches`);
    return withEngineTypes(t.batches[0]!);
  }
  if (ArrayBuffer.isView(x) || x instanceof ArrayBuffer || x instanceof Date || x instanceof RegExp) return x;
  const done = seen.get(x);
  if (done !== undefined) return done;
  if (Array.isArray(x)) { const out: unknown[] = []; seen.set(x, out); for (const v of x) out.push(decodeValue(v, seen)); return out; }
  if (x instanceof Map) { const out = new Map(); seen.set(x, out); for (const [k, v] of x) out.set(decodeValue(k, seen), decodeValue(v, seen)); return out; }
  if (x instanceof Set) { const out = new Set(); seen.set(x, out); for (const v of x) out.add(decodeValue(v, seen)); return out; }
  const out: Record<string, unknown> = {};
  seen.set(x, out);
  for (const [k, v] of Object.entries(x)) out[k] = decodeValue(v, seen);
  return out;
}

/** The bytes of a checkpoint file for `snap` (header + payload). */
export function encodeSnapshot(snap: RunSnapshot): Buffer {
  let payload: Buffer;
  try {
    payload = serialize(encodeValue(snap, new Map()));
  } catch (e) {
    throw new Error(`a checkpoint could not be written: operator state must be structured-cloneable (${(e as Error).message})`, { cause: e });
  }
  const header = Buffer.alloc(HEADER);
  MAGIC.copy(header, 0);
  header.writeUInt32LE(crc32(payload), MAGIC.length);
  header.writeBigUInt64LE(BigInt(payload.byteLength), MAGIC.length + 4);
  return Buffer.concat([header, payload]);
}

/** Decodes a checkpoint file; throws saying what is wrong when it is not a complete, intact one. */
export function decodeSnapshot(bytes: Buffer, what = 'checkpoint'): RunSnapshot {
  if (bytes.byteLength < HEADER || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error(`${what} is not an eddy checkpoint`);
  const len = Number(bytes.readBigUInt64LE(MAGIC.length + 4));
  const payload = bytes.subarray(HEADER);
  if (payload.byteLength !== len) throw new Error(`${what} is incomplete: ${payload.byteLength} of ${len} bytes`);
  const crc = crc32(payload);
  if (crc !== bytes.readUInt32LE(MAGIC.length)) throw new Error(`${what} is corrupt (checksum mismatch)`);
  return decodeValue(deserialize(payload), new Map()) as RunSnapshot;
}

/** The checkpoints of one job in a directory. */
export class CheckpointStore {
  private next: number;

  /** @param dir created when missing; @param keep how many complete checkpoints stay on disk (≥ 1) */
  constructor(readonly dir: string, private readonly keep = 2) {
    mkdirSync(dir, { recursive: true });
    // Temporary files are checkpoints a crash interrupted: never valid, removed.
    for (const f of readdirSync(dir)) if (f.endsWith('.tmp') && f.startsWith('chk-')) rmSync(join(dir, f), { force: true });
    this.next = Math.max(0, ...this.numbers()) + 1;
  }

  private numbers(): number[] {
    return readdirSync(this.dir).map((f) => NAME.exec(f)).filter((m): m is RegExpExecArray => m !== null).map((m) => Number(m[1]));
  }

  private path(n: number): string {
    return join(this.dir, `chk-${String(n).padStart(9, '0')}.eddy`);
  }

  /** Writes a checkpoint atomically (write, fsync, rename, fsync the directory); returns its number. */
  write(snap: RunSnapshot): number {
    const n = this.next++;
    const final = this.path(n);
    const tmp = `${final}.tmp`;
    const bytes = encodeSnapshot(snap);
    const fd = openSync(tmp, 'w');
    try {
      let off = 0;
      while (off < bytes.byteLength) off += writeSync(fd, bytes, off, bytes.byteLength - off);
      fsyncSync(fd);
    } catch (e) {
      closeSync(fd);
      rmSync(tmp, { force: true });
      throw e;
    }
    closeSync(fd);
    renameSync(tmp, final);
    try { const d = openSync(this.dir, 'r'); try { fsyncSync(d); } finally { closeSync(d); } } catch { /* directories cannot be fsynced on every platform */ }
    for (const old of this.numbers().sort((a, b) => b - a).slice(this.keep)) rmSync(this.path(old), { force: true });
    return n;
  }

  /** The newest complete, intact checkpoint, or undefined when there is none. */
  latest(): { readonly number: number; readonly snapshot: RunSnapshot } | undefined {
    for (const n of this.numbers().sort((a, b) => b - a)) {
      try {
        return { number: n, snapshot: decodeSnapshot(readFileSync(this.path(n)), this.path(n)) };
      } catch {
        // A damaged file (a disk error after the rename): fall back to the one before.
      }
    }
    return undefined;
  }

  /** Removes every checkpoint file of the store. */
  clear(): void {
    for (const n of this.numbers()) rmSync(this.path(n), { force: true });
  }
}
