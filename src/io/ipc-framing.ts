/**
 * Validation of an Arrow IPC file's framing, once per file before it is read:
 * the message sequence (length prefixes, metadata, bodies) must tile the file,
 * a stream must end with its end-of-stream marker (so a stream cut at a
 * message boundary is not read as a shorter table), and in the file format
 * the footer's schema must equal the schema message (when there is one:
 * apache-arrow's JS writer omits it) and the footer's blocks must name
 * exactly the messages in the file (a damaged block would read another
 * batch, or one twice). The reader's own per-message checks are in ipc-check.
 * Only metadata is read (a few small reads per message), never the bodies.
 */
import type { FileHandle } from 'node:fs/promises';
import * as arrow from 'apache-arrow';
import { checkIpcSchema, CorruptIpcError } from './ipc-check.js';
import { guardFooter, guardMessage } from './ipc-flatbuffers.js';

/** A message found in the file: where it starts, its metadata length (prefix included) and body length. */
interface Block { readonly offset: number; readonly metaDataLength: number; readonly bodyLength: number; readonly type: number; readonly message: arrow.Message }

/** The blocks of an apache-arrow footer (the `footer` of an opened file reader). */
export interface FooterLike {
  readonly schema: arrow.Schema;
  readonly numRecordBatches: number;
  readonly numDictionaries: number;
  getRecordBatch(i: number): { offset: number; metaDataLength: number; bodyLength: number } | null;
  getDictionaryBatch(i: number): { offset: number; metaDataLength: number; bodyLength: number } | null;
}

const MAGIC = 'ARROW1';

function fail(what: string, detail: string): never {
  throw new CorruptIpcError(`${what}: corrupt Arrow IPC data: ${detail}`);
}

async function readAt(handle: FileHandle, pos: number, len: number): Promise<Uint8Array> {
  const buf = new Uint8Array(len);
  const { bytesRead } = await handle.read(buf, 0, len, pos);
  return bytesRead === len ? buf : buf.subarray(0, bytesRead);
}

function int32(b: Uint8Array, at: number): number {
  return new DataView(b.buffer, b.byteOffset, b.byteLength).getInt32(at, true);
}

/** Walks the messages in [start, limit); returns them and whether an end-of-stream marker closed them. */
async function walk(handle: FileHandle, start: number, limit: number, what: string): Promise<{ blocks: Block[]; ended: boolean }> {
  const blocks: Block[] = [];
  let pos = start;
  while (pos < limit) {
    const head = await readAt(handle, pos, Math.min(8, limit - pos));
    if (head.length < 4) fail(what, `the file ends inside the length prefix of the message at byte ${pos}`);
    let prefix = 4, len = int32(head, 0);
    if (len === -1) {
      if (head.length < 8) fail(what, `the file ends inside the length prefix of the message at byte ${pos}`);
      prefix = 8;
      len = int32(head, 4);
    }
    if (len === 0) return { blocks, ended: true };
    if (len < 0 || pos + prefix + len > limit) fail(what, `the message at byte ${pos} claims ${len} bytes of metadata, past the end of the data (byte ${limit})`);
    let message: arrow.Message;
    try {
      const meta = await readAt(handle, pos + prefix, len);
      guardMessage(meta);
      message = arrow.Message.decode(meta);
    } catch (err) {
      fail(what, `the message at byte ${pos} has unreadable metadata (${(err as Error).message})`);
    }
    const H = arrow.MessageHeader;
    if (message.headerType !== H.Schema && message.headerType !== H.RecordBatch && message.headerType !== H.DictionaryBatch) {
      fail(what, `the message at byte ${pos} has type ${message.headerType}, not a schema, record batch or dictionary batch`);
    }
    const bodyLength = message.bodyLength;
    const bodyStart = pos + prefix + len;
    if (!Number.isSafeInteger(bodyLength) || bodyLength < 0 || bodyStart + bodyLength > limit) {
      fail(what, `the message at byte ${pos} claims a ${bodyLength}-byte body, past the end of the data (byte ${limit}); the file is truncated or damaged`);
    }
    blocks.push({ offset: pos, metaDataLength: prefix + len, bodyLength, type: message.headerType, message });
    pos = bodyStart + bodyLength;
  }
  return { blocks, ended: false };
}

function typeText(t: arrow.DataType): string {
  return arrow.DataType.isDictionary(t) ? `dict<${t.id},${typeText(t.indices)},${typeText(t.dictionary)}>` : `${t.typeId}:${String(t)}`;
}

function schemaText(s: arrow.Schema): string {
  const meta = (m: Map<string, string>): string => JSON.stringify([...m.entries()]);
  return JSON.stringify([s.fields.map((f) => [f.name, f.nullable, typeText(f.type), meta(f.metadata)]), meta(s.metadata)]);
}

function leadingSchema(blocks: readonly Block[], what: string): arrow.Schema {
  const first = blocks[0];
  if (first === undefined || first.type !== arrow.MessageHeader.Schema) fail(what, 'the data does not start with a schema message');
  try {
    return first.message.header() as arrow.Schema;
  } catch (err) {
    fail(what, `the schema message is unreadable (${(err as Error).message})`);
  }
}

/** What `checkIpcFraming` found: the format and the messages of the file. */
export interface IpcFraming { readonly isFile: boolean; readonly blocks: readonly Block[] }

/**
 * Checks the framing of the Arrow IPC file or stream in `handle` (size
 * `size` bytes) before apache-arrow reads any of it; throws CorruptIpcError
 * naming `what` and the first inconsistency found.
 */
export async function checkIpcFraming(handle: FileHandle, size: number, what: string): Promise<IpcFraming> {
  const head = await readAt(handle, 0, 8);
  const text = (b: Uint8Array): string => String.fromCharCode(...b);
  if (size >= 14 && text(head.subarray(0, 6)) === MAGIC) {
    const tail = await readAt(handle, size - 10, 10);
    if (size < 18 || text(tail.subarray(4, 10)) !== MAGIC) fail(what, 'the file starts with the ARROW1 magic but does not end with it (truncated?)');
    const footerLength = int32(tail, 0);
    const footerStart = size - 10 - footerLength;
    if (footerLength <= 0 || footerStart < 8) fail(what, `the footer length ${footerLength} does not fit the ${size}-byte file`);
    try {
      guardFooter(await readAt(handle, footerStart, footerLength));
    } catch (err) {
      fail(what, `the footer is unreadable (${(err as Error).message})`);
    }
    const { blocks } = await walk(handle, 8, footerStart, what);
    // apache-arrow's JS writer leaves the schema message out of the file format (the footer has it).
    if (blocks[0]?.type === arrow.MessageHeader.Schema) checkIpcSchema(leadingSchema(blocks, what), what);
    if (blocks.some((b, i) => i > 0 && b.type === arrow.MessageHeader.Schema)) fail(what, 'the file holds a second schema message');
    return { isFile: true, blocks };
  }
  const { blocks, ended } = await walk(handle, 0, size, what);
  checkIpcSchema(leadingSchema(blocks, what), what);
  if (!ended) fail(what, 'the stream ends without its end-of-stream marker: it is truncated (or was not closed by its writer)');
  return { isFile: false, blocks };
}

/**
 * Checks an Arrow IPC file's footer, as apache-arrow decoded it, against the
 * messages `checkIpcFraming` found; throws CorruptIpcError naming `what`.
 */
export function checkIpcFooter(framing: IpcFraming, footer: FooterLike, what: string): void {
  const { blocks } = framing;
  checkIpcSchema(footer.schema, what);
  if (blocks[0]?.type === arrow.MessageHeader.Schema && schemaText(leadingSchema(blocks, what)) !== schemaText(footer.schema)) {
    fail(what, 'the schema in the footer differs from the schema message at the start of the file');
  }
  const expect = (kind: string, type: number, count: number, get: (i: number) => { offset: number; metaDataLength: number; bodyLength: number } | null): void => {
    const found = blocks.filter((b) => b.type === type);
    if (count !== found.length) fail(what, `the footer lists ${count} ${kind}es, the file holds ${found.length}`);
    for (let i = 0; i < count; i++) {
      const a = get(i), b = found[i]!;
      if (a === null || a.offset !== b.offset || a.metaDataLength !== b.metaDataLength || a.bodyLength !== b.bodyLength) {
        fail(what, `footer entry ${i} of its ${kind}es (offset ${a?.offset}, metadata ${a?.metaDataLength}, body ${a?.bodyLength}) does not match the message at byte ${b.offset}`);
      }
    }
  };
  expect('record batch', arrow.MessageHeader.RecordBatch, footer.numRecordBatches, (i) => footer.getRecordBatch(i));
  expect('dictionary batch', arrow.MessageHeader.DictionaryBatch, footer.numDictionaries, (i) => footer.getDictionaryBatch(i));
}
