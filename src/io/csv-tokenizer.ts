/**
 * Incremental CSV tokenizer: reads a file through a FileHandle into one
 * reusable buffer and splits it into records and fields without creating
 * strings. Each call to `next` returns a round of complete records as field
 * byte ranges (`starts`/`ends`, row-major with stride = number of columns) into
 * `buf`, valid until the following call.
 *
 * Dialect: RFC 4180 with a configurable one-byte delimiter and quote; a quote
 * inside a quoted field is doubled; records end with LF, CRLF or a bare CR
 * (old Mac files; DuckDB reads all three); empty lines
 * are skipped; a UTF-8 byte-order mark is ignored. `skipLines` drops raw
 * lines before the first record (read_csv's `skip`, quotes not interpreted,
 * as DuckDB); `ignoreErrors` drops records with the wrong number of fields
 * instead of failing (read_csv's `ignore_errors`).
 */
import { isUtf8 } from 'node:buffer';
import { open, type FileHandle } from 'node:fs/promises';
import { CancelledError, ExecutionError } from '../relnode/errors.js';

const LF = 10, CR = 13;
/** Field flag: the field was quoted. */
export const QUOTED = 1;
/** Field flag: the field was quoted and contains doubled quotes. */
export const ESCAPED = 2;
const INITIAL_BUFFER = 1 << 20;
const LEARN_STRIDE = 1 << 16;

/** One round of tokenized records. */
export interface CsvRound {
  /** The bytes the field ranges point into. */
  readonly buf: Buffer;
  /** Number of records. */
  readonly n: number;
  /** Fields per record (the stride of starts/ends/flags). */
  readonly stride: number;
  /** Start of field c of record r at `starts[r * stride + c]` (quotes excluded). */
  readonly starts: Int32Array;
  /** End (exclusive) of each field. */
  readonly ends: Int32Array;
  /** 0, QUOTED or ESCAPED per field. */
  readonly flags: Uint8Array;
  /** 1-based line number where each record starts. */
  readonly lines: Float64Array;
}

/** Options of a tokenizer. */
export interface CsvTokenizerOptions {
  readonly path: string;
  readonly delimiter: number;
  readonly quote: number;
  /** Fields per record; 0 = learn it from the first record. */
  readonly stride: number;
  /** Where the expected field count comes from, for messages ("the header"). */
  readonly strideSource?: string;
  readonly signal?: AbortSignal;
  /** Raw lines to skip at the start of the file (after a byte-order mark). */
  readonly skipLines?: number;
  /** Drop records whose field count differs from the stride instead of failing. */
  readonly ignoreErrors?: boolean;
}

/** Streams records of a CSV file; call `close()` when done. */
export class CsvTokenizer {
  private buf: Buffer = Buffer.allocUnsafe(INITIAL_BUFFER);
  private pos = 0;
  private end = 0;
  private eof = false;
  private line = 1;
  private started = false;
  private stride: number;
  private learning: boolean;
  private starts = new Int32Array(0);
  private ends = new Int32Array(0);
  private flags = new Uint8Array(0);
  private lines = new Float64Array(0);
  private closed = false;
  private toSkip: number;

  private constructor(private readonly handle: FileHandle, private readonly opts: CsvTokenizerOptions) {
    this.learning = opts.stride === 0;
    this.stride = this.learning ? LEARN_STRIDE : opts.stride;
    this.toSkip = Math.max(0, opts.skipLines ?? 0);
  }

  /** Opens `path` for tokenizing. */
  static async open(opts: CsvTokenizerOptions): Promise<CsvTokenizer> {
    let handle: FileHandle;
    try {
      handle = await open(opts.path, 'r');
    } catch (err) {
      throw new ExecutionError(`cannot open csv file ${opts.path}: ${(err as Error).message}`, { cause: err });
    }
    return new CsvTokenizer(handle, opts);
  }

  /** The field count, once known. */
  get fieldCount(): number {
    return this.learning ? 0 : this.stride;
  }

  /** Returns up to `maxRows` complete records, or null at the end of the file. */
  async next(maxRows: number): Promise<CsvRound | null> {
    if (this.toSkip > 0) await this.skipLeading();
    if (this.learning) maxRows = 1;
    this.reserve(maxRows);
    for (;;) {
      if (this.opts.signal?.aborted) throw new CancelledError(`scan of csv ${this.opts.path} cancelled`);
      if (this.pos < this.end || this.eof) {
        const from = this.pos;
        const n = this.tokenize(maxRows);
        if (n > 0) {
          const stride = this.stride;
          if (!isUtf8(this.buf.subarray(from, this.pos))) this.failUtf8(n);
          return { buf: this.buf, n, stride, starts: this.starts, ends: this.ends, flags: this.flags, lines: this.lines };
        }
        if (this.eof) return null;
      }
      await this.fill();
    }
  }

  /** Closes the file (idempotent). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.handle.close();
  }

  /** Consumes `skipLines` raw lines (LF, CRLF or CR each end one), reading as needed. */
  private async skipLeading(): Promise<void> {
    while (this.toSkip > 0) {
      const buf = this.buf;
      while (this.toSkip > 0 && this.pos < this.end) {
        const c = buf[this.pos];
        if (c === LF) { this.pos++; this.line++; this.toSkip--; continue; }
        if (c === CR) {
          if (this.pos + 1 >= this.end && !this.eof) break;
          this.pos += this.pos + 1 < this.end && buf[this.pos + 1] === LF ? 2 : 1;
          this.line++; this.toSkip--; continue;
        }
        this.pos++;
      }
      if (this.toSkip === 0) return;
      if (this.eof) { this.pos = this.end; this.toSkip = 0; return; }
      await this.fill();
    }
  }

  private reserve(rows: number): void {
    const size = rows * this.stride;
    if (this.starts.length >= size && this.lines.length >= rows) return;
    this.starts = new Int32Array(size);
    this.ends = new Int32Array(size);
    this.flags = new Uint8Array(size);
    this.lines = new Float64Array(rows);
  }

  /** Moves the unconsumed tail to the front, grows the buffer if it is full, and reads more. */
  private async fill(): Promise<void> {
    if (this.pos > 0) {
      this.buf.copyWithin(0, this.pos, this.end);
      this.end -= this.pos;
      this.pos = 0;
    }
    if (this.end === this.buf.length) {
      const bigger = Buffer.allocUnsafe(this.buf.length * 2);
      this.buf.copy(bigger, 0, 0, this.end);
      this.buf = bigger;
    }
    const { bytesRead } = await this.handle.read(this.buf, this.end, this.buf.length - this.end, null);
    if (bytesRead === 0) this.eof = true;
    this.end += bytesRead;
    if (!this.started && this.end >= 3) {
      this.started = true;
      if (this.buf[0] === 0xef && this.buf[1] === 0xbb && this.buf[2] === 0xbf) this.pos = 3;
    } else if (this.eof) this.started = true;
  }

  /** Names the first record of the round with invalid UTF-8 (DuckDB fails on it too, instead of reading U+FFFD). */
  private failUtf8(n: number): never {
    const stride = this.stride;
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < stride; c++) {
        const k = r * stride + c;
        if (!isUtf8(this.buf.subarray(this.starts[k]!, this.ends[k]!))) {
          this.fail(`column ${c + 1}: invalid UTF-8; the file must be UTF-8 encoded (convert it, e.g. with iconv)`, this.lines[r]!);
        }
      }
    }
    this.fail('invalid UTF-8; the file must be UTF-8 encoded (convert it, e.g. with iconv)', this.lines[0]!);
  }

  private fail(message: string, line: number): never {
    throw new ExecutionError(`csv ${this.opts.path}: line ${line}: ${message}`);
  }

  /**
   * Tokenizes complete records from `pos` into the field arrays; stops at
   * `maxRows` or at an incomplete record (unless at the end of the file).
   * Hot loop: unquoted fields scan for delimiter, LF or CR only.
   */
  private tokenize(maxRows: number): number {
    const buf = this.buf, end = this.end, eof = this.eof;
    const D = this.opts.delimiter, Q = this.opts.quote;
    const stride = this.stride, starts = this.starts, ends = this.ends, flags = this.flags, lines = this.lines;
    let p = this.pos, line = this.line, n = 0;
    records: while (n < maxRows && p < end) {
      const recStart = p, recLine = line;
      const c0 = buf[p];
      if (c0 === LF) { p++; line++; this.pos = p; this.line = line; continue; }
      if (c0 === CR) {
        if (p + 1 >= end && !eof) break;
        p += p + 1 < end && buf[p + 1] === LF ? 2 : 1;
        line++; this.pos = p; this.line = line; continue;
      }
      const base = n * stride;
      let col = 0;
      for (;;) {
        let fs: number, fe: number, q = 0;
        if (p < end && buf[p] === Q) {
          q = QUOTED;
          fs = p + 1;
          let i = fs;
          for (;;) {
            while (i < end && buf[i] !== Q) { if (buf[i] === LF) line++; i++; }
            if (i >= end) {
              if (!eof) { p = recStart; line = recLine; break records; }
              this.fail(`unterminated quoted field in column ${col + 1} (the quote opened on line ${recLine} is never closed); check the quoting or pass a different quote character`, recLine);
            }
            if (i + 1 >= end && !eof) { p = recStart; line = recLine; break records; }
            if (i + 1 < end && buf[i + 1] === Q) { q = ESCAPED; i += 2; continue; }
            break;
          }
          fe = i;
          p = i + 1;
          if (p < end) {
            const c = buf[p];
            if (c === CR) {
              if (p + 1 >= end && !eof) { p = recStart; line = recLine; break records; }
              if (p + 1 < end && buf[p + 1] === LF) p++; // CRLF; a bare CR ends the record by itself
            } else if (c !== D && c !== LF) {
              this.fail(`unexpected character '${String.fromCharCode(c!)}' after the closing quote of column ${col + 1}; expected the delimiter or the end of the line (a quote inside a quoted field must be doubled)`, line);
            }
          } else if (!eof) { p = recStart; line = recLine; break records; }
        } else {
          fs = p;
          while (p < end) {
            const c = buf[p];
            if (c === D || c === LF || c === CR) break;
            p++;
          }
          if (p >= end && !eof) { p = recStart; line = recLine; break records; }
          fe = p;
          if (p < end && buf[p] === CR) {
            if (p + 1 >= end && !eof) { p = recStart; line = recLine; break records; }
            if (p + 1 < end && buf[p + 1] === LF) p++; // CRLF; a bare CR ends the record by itself
          }
        }
        if (col < stride) { starts[base + col] = fs; ends[base + col] = fe; flags[base + col] = q; }
        col++;
        if (p >= end) break;
        if (buf[p] === D) { p++; continue; }
        p++;
        line++;
        break;
      }
      if (this.learning) {
        if (col > LEARN_STRIDE) this.fail(`more than ${LEARN_STRIDE} fields in one record`, recLine);
        this.learning = false;
        this.stride = col;
        this.reserveLearned(col);
      } else if (col !== stride) {
        if (this.opts.ignoreErrors === true) { this.pos = p; this.line = line; continue; }
        const src = this.opts.strideSource ?? 'the first line';
        if (col > stride) this.fail(`found ${col} fields but expected ${stride} (from ${src}); column ${stride + 1} is extra — check the delimiter and quoting`, recLine);
        this.fail(`found ${col} fields but expected ${stride} (from ${src}); column ${col + 1} is missing — check the delimiter and quoting`, recLine);
      }
      lines[n] = recLine;
      n++;
      this.pos = p;
      this.line = line;
    }
    return n;
  }

  /** After learning the field count, repacks record 0 with the real stride. */
  private reserveLearned(stride: number): void {
    const s = this.starts.slice(0, stride), e = this.ends.slice(0, stride), f = this.flags.slice(0, stride);
    this.starts = s; this.ends = e; this.flags = f;
  }
}
