/**
 * The sqllogictest record model and its parser. A file is a list of records
 * separated by blank lines; `#` lines are comments (removed first, so they
 * never separate records); `skipif` / `onlyif` lines may precede any record.
 * Handles SQLite, DuckDB and DataFusion flavours of the format.
 */

/** How a query's rendered results are sorted before comparison. */
export type SortMode = 'nosort' | 'rowsort' | 'valuesort';

/** A `skipif <engine>` or `onlyif <engine>` line. */
export interface Condition {
  readonly kind: 'skipif' | 'onlyif';
  /** Engine name, lower-cased. */
  readonly engine: string;
}

interface RecordBase {
  /** 1-based line of the record's header (after its condition lines). */
  readonly line: number;
  readonly conditions: readonly Condition[];
}

/** `statement ok|error|count N`: SQL without rows to compare. */
export interface StatementRecord extends RecordBase {
  readonly kind: 'statement';
  readonly expect: 'ok' | 'error' | 'count';
  /** For `statement count N`. */
  readonly count?: number;
  /** Expected error text (DataFusion: on the header line; DuckDB/eddy: after `----`); may be empty. */
  readonly error?: string;
  readonly sql: string;
}

/** `query <types> [sort] [label]` with its expected block, or `query error <msg>` (DataFusion). */
export interface QueryRecord extends RecordBase {
  readonly kind: 'query';
  /** One letter per column (I, R, T, and DataFusion's B, D, P, ?). Empty for `query error`. */
  readonly types: string;
  readonly sort: SortMode;
  readonly label?: string;
  readonly sql: string;
  /** Expected lines after `----` (empty when there are none). */
  readonly expected: readonly string[];
  /** Set for `query error [msg]`: the query must fail (message may be empty). */
  readonly error?: string;
}

/** `hash-threshold N`. */
export interface HashThresholdRecord extends RecordBase {
  readonly kind: 'hash-threshold';
  readonly value: number;
}

/** `halt`: stop running the file. */
export interface HaltRecord extends RecordBase {
  readonly kind: 'halt';
}

/**
 * A control record the runner does not support (`require`, `mode`, `loop` /
 * `foreach` blocks, `load`, `restart`, ...). `nested` holds the records
 * inside a loop block, which are counted as unsupported too.
 */
export interface ControlRecord extends RecordBase {
  readonly kind: 'control';
  /** The command word, lower-cased (`require`, `mode`, `loop`, ...). */
  readonly command: string;
  /** The header line's arguments. */
  readonly args: readonly string[];
  readonly nested: readonly SltRecord[];
}

/** Any sqllogictest record. */
export type SltRecord = StatementRecord | QueryRecord | HashThresholdRecord | HaltRecord | ControlRecord;

/** Thrown for a malformed record; carries the line. */
export class SltParseError extends Error {
  /** @param line 1-based line of the bad record. */
  constructor(message: string, readonly line: number) {
    super(`line ${line}: ${message}`);
  }
}

interface RawBlock {
  /** Line numbers (1-based) parallel to `lines`. */
  readonly numbers: number[];
  readonly lines: string[];
}

/** Splits text into blank-line separated blocks of non-comment lines (CRLF tolerated). */
function blocksOf(text: string): RawBlock[] {
  const all = text.split(/\r?\n/);
  const out: RawBlock[] = [];
  let cur: RawBlock | undefined;
  for (let i = 0; i < all.length; i++) {
    const line = all[i]!.replace(/\r$/, '');
    if (line.startsWith('#')) continue;
    if (line.trim() === '') {
      cur = undefined;
      continue;
    }
    if (!cur) {
      cur = { numbers: [], lines: [] };
      out.push(cur);
    }
    cur.numbers.push(i + 1);
    cur.lines.push(line);
  }
  return out;
}

/** Drops an inline ` # comment` from a header line. */
function stripInlineComment(line: string): string {
  const at = line.search(/\s#/);
  return (at >= 0 ? line.slice(0, at) : line).trim();
}

const SORT_MODES: ReadonlySet<string> = new Set(['nosort', 'rowsort', 'valuesort']);
const LOOP_STARTS: ReadonlySet<string> = new Set(['loop', 'foreach', 'concurrentloop', 'concurrentforeach']);

/** Splits a block's body (after the header) at the `----` line. */
function splitAtSeparator(lines: readonly string[]): { sql: string; after: string[] | undefined } {
  const at = lines.findIndex((l) => l.trim() === '----');
  if (at < 0) return { sql: lines.join('\n'), after: undefined };
  return { sql: lines.slice(0, at).join('\n'), after: lines.slice(at + 1) };
}

/** Parses one block (conditions, header, body) into a record. */
function parseBlock(b: RawBlock): SltRecord {
  const conditions: Condition[] = [];
  let i = 0;
  for (; i < b.lines.length; i++) {
    const m = /^(skipif|onlyif)\s+(\S+)/i.exec(stripInlineComment(b.lines[i]!));
    if (!m) break;
    conditions.push({ kind: m[1]!.toLowerCase() as Condition['kind'], engine: m[2]!.toLowerCase() });
  }
  if (i >= b.lines.length) throw new SltParseError('condition lines without a record', b.numbers[0]!);
  const line = b.numbers[i]!;
  const header = b.lines[i]!.trim();
  const body = b.lines.slice(i + 1);
  const words = header.split(/\s+/);
  const command = words[0]!.toLowerCase();
  switch (command) {
    case 'statement': {
      const mode = (words[1] ?? '').toLowerCase();
      const { sql, after } = splitAtSeparator(body);
      if (mode === 'ok') return { kind: 'statement', line, conditions, expect: 'ok', sql };
      if (mode === 'error') {
        const inline = header.replace(/^statement\s+error\s*/i, '');
        const error = inline !== '' ? inline : (after ?? []).join('\n').trim();
        return { kind: 'statement', line, conditions, expect: 'error', error, sql };
      }
      if (mode === 'count') {
        const count = Number(words[2]);
        if (!Number.isInteger(count)) throw new SltParseError(`bad statement count "${header}"`, line);
        return { kind: 'statement', line, conditions, expect: 'count', count, sql };
      }
      throw new SltParseError(`unknown statement mode "${header}"`, line);
    }
    case 'query': {
      const { sql, after } = splitAtSeparator(body);
      if ((words[1] ?? '').toLowerCase() === 'error') {
        const error = header.replace(/^query\s+error\s*/i, '');
        return { kind: 'query', line, conditions, types: '', sort: 'nosort', sql, expected: after ?? [], error };
      }
      const args = stripInlineComment(header).split(/\s+/).slice(1);
      const types = args[0] ?? '';
      if (types === '') throw new SltParseError('query without column types', line);
      let sort: SortMode = 'nosort';
      let label: string | undefined;
      for (const a of args.slice(1)) {
        if (SORT_MODES.has(a.toLowerCase())) sort = a.toLowerCase() as SortMode;
        else if (label === undefined) label = a;
      }
      const rec: QueryRecord = { kind: 'query', line, conditions, types, sort, sql, expected: after ?? [] };
      return label === undefined ? rec : { ...rec, label };
    }
    case 'hash-threshold': {
      const value = Number(words[1]);
      if (!Number.isInteger(value) || value < 0) throw new SltParseError(`bad hash-threshold "${header}"`, line);
      return { kind: 'hash-threshold', line, conditions, value };
    }
    case 'halt':
      return { kind: 'halt', line, conditions };
    default:
      return { kind: 'control', line, conditions, command, args: words.slice(1), nested: [] };
  }
}

/**
 * Parses sqllogictest text into records. `loop` / `foreach` ... `endloop`
 * blocks become one control record holding the records inside.
 */
export function parseSlt(text: string): SltRecord[] {
  const top: SltRecord[] = [];
  // A stack of open loop blocks: records go into the innermost one.
  const stack: { header: SltRecord & { kind: 'control' }; nested: SltRecord[] }[] = [];
  for (const block of blocksOf(text)) {
    // A block may hold several control lines without blank lines between them
    // (e.g. `endloop` directly after a query): split those off first.
    for (const rec of splitControlLines(block).map(parseBlock)) {
      const target = stack.length > 0 ? stack[stack.length - 1]!.nested : top;
      if (rec.kind === 'control' && LOOP_STARTS.has(rec.command)) {
        stack.push({ header: rec, nested: [] });
        continue;
      }
      if (rec.kind === 'control' && rec.command === 'endloop') {
        const open = stack.pop();
        if (!open) throw new SltParseError('endloop without loop', rec.line);
        const closed: ControlRecord = { ...open.header, nested: open.nested };
        (stack.length > 0 ? stack[stack.length - 1]!.nested : top).push(closed);
        continue;
      }
      target.push(rec);
    }
  }
  if (stack.length > 0) throw new SltParseError('loop without endloop', stack[stack.length - 1]!.header.line);
  return top;
}

/** Splits `endloop` lines that end a block without a blank line before them. */
function splitControlLines(b: RawBlock): RawBlock[] {
  const out: RawBlock[] = [];
  let cur: RawBlock = { numbers: [], lines: [] };
  for (let i = 0; i < b.lines.length; i++) {
    if (b.lines[i]!.trim().toLowerCase() === 'endloop' && cur.lines.length > 0) {
      out.push(cur);
      cur = { numbers: [], lines: [] };
    }
    cur.numbers.push(b.numbers[i]!);
    cur.lines.push(b.lines[i]!);
  }
  out.push(cur);
  return out;
}

/** Counts the records a record stands for (a loop block counts its nested records). */
export function recordCount(r: SltRecord): number {
  if (r.kind === 'control' && r.nested.length > 0) return r.nested.reduce((n, x) => n + recordCount(x), 0);
  return 1;
}
