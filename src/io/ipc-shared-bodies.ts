/**
 * Arrow IPC message bodies read straight into SharedArrayBuffers: for an environment with worker
 * threads (io/column-memory.ts), a record batch read from an Arrow IPC file then has its columns
 * in shared memory (apache-arrow's loader makes them views into the body), so a table collected
 * from the file and registered ships to the workers with no copy.
 *
 * Decision: the body is read into its shared buffer by one file read, not read by apache-arrow
 * and then copied: the copy touched fresh pages a second time for every byte, which is what the
 * first shipped query used to pay (3.2-3.5 s of CPU for lineitem at SF 1). apache-arrow offers no
 * allocator hook, so this replaces `readMessageBody` on the reader's message reader, as
 * ipc-check.ts's `guardIpcReader` wraps its loader (apache-arrow 21's internals); when they are
 * not there, the reader is left as it is (ordinary buffers, copied at the first shipped query).
 * Metadata stays in ordinary buffers; each body is its own buffer, so a batch that is dropped
 * frees its body.
 */
import type { FileHandle } from 'node:fs/promises';
import type * as arrow from 'apache-arrow';
import type { ColumnMemory } from './column-memory.js';

/** The apache-arrow 21 internals replaced (see the header). */
interface ReaderInternals {
  readonly _impl?: {
    readonly _reader?: {
      readMessageBody?: (n: number) => Promise<Uint8Array>;
      readonly source?: { position: number; size: number };
    };
  };
}

/**
 * Makes `reader` (opened over `handle`, not yet `open`ed: dictionaries are read by `open`) read
 * message bodies into buffers of `memory`. Returns false, changing nothing, when `memory` is
 * ordinary or the reader's internals are not the expected ones.
 */
export function readBodiesInto(
  reader: arrow.AsyncRecordBatchFileReader | arrow.AsyncRecordBatchStreamReader, handle: FileHandle, memory: ColumnMemory,
): boolean {
  if (!memory.shared) return false;
  const messages = (reader as unknown as ReaderInternals)._impl?._reader;
  const file = messages?.source;
  if (messages === undefined || typeof messages.readMessageBody !== 'function' || file === undefined
    || typeof file.position !== 'number' || typeof file.size !== 'number') return false;
  messages.readMessageBody = async (bodyLength: number): Promise<Uint8Array> => {
    if (bodyLength <= 0) return new Uint8Array(0);
    const start = file.position;
    const end = Math.min(file.size, start + bodyLength);
    const body = memory.bytes(end - start);
    let got = 0;
    while (got < body.length) {
      const { bytesRead } = await handle.read(body, got, body.length - got, start + got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    file.position = start + got;
    if (got < bodyLength) throw new Error(`expected a ${bodyLength}-byte message body, but only ${got} bytes could be read`);
    return body;
  };
  return true;
}
