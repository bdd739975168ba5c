/**
 * The allow-list of expected failures (`test/slt/allowlist.tsv`): one record
 * per line as `file <TAB> line <TAB> category <TAB> reason [<TAB> mode]`,
 * `#` comments. `mode` (failure-mode.ts) says how the record fails: the hash
 * of its wrong rows (`rows:<md5>`) or a pattern of its message
 * (`error:<regex>`); a failure of another kind is not covered by the entry.
 * Every record entry carries one (written by `npm run test:slt --
 * --update-allowlist`); a whole-file entry uses it to cover only, say,
 * timeouts.
 * `file` is the suite-relative path for vendored files (`sqlite/test/select1.test`)
 * and the repo-relative path for eddy's own (`test/slt/joins.slt`); `line`
 * is the record header's line, or `*` for every record of the file.
 * Categories: `bug` (an eddy bug to fix), `feature` (SQL eddy does not
 * implement), `dialect` (eddy deliberately differs from the file's engine).
 */
import { readFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { modeCovers, parseMode, type FailureMode, type ObservedFailure } from './failure-mode.js';

/** Why a failure is expected. */
export type AllowCategory = 'bug' | 'feature' | 'dialect';

/** One allow-list entry. */
export interface AllowEntry {
  readonly file: string;
  /** Record line, or undefined for the whole file. */
  readonly line?: number;
  readonly category: AllowCategory;
  readonly reason: string;
  /** Only failures of this kind are covered by the entry; none: every failure. */
  readonly mode?: FailureMode;
}

const CATEGORIES: ReadonlySet<string> = new Set(['bug', 'feature', 'dialect']);

/** The repository root (two levels above this file). */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The allow-list's default location. */
export const DEFAULT_ALLOWLIST = resolve(REPO_ROOT, 'test/slt/allowlist.tsv');

/**
 * The key of a test file in the allow-list and the summary: the part after
 * `slt/` for vendored files (`sqlite/test/select1.test`), else the path
 * relative to the repository root.
 */
export function fileKey(path: string): string {
  const abs = resolve(path).split(sep).join('/');
  const m = /\/slt\/((?:sqlite|duckdb|datafusion)\/.*)$/.exec(abs);
  if (m) return m[1]!;
  return relative(REPO_ROOT, resolve(path)).split(sep).join('/');
}

/** Expected failures, looked up by file key and record line. */
export class AllowList {
  private readonly byKey = new Map<string, AllowEntry[]>();

  /** @param entries the list's entries. */
  constructor(readonly entries: readonly AllowEntry[]) {
    for (const e of entries) {
      const k = `${e.file}:${e.line ?? '*'}`;
      this.byKey.set(k, [...(this.byKey.get(k) ?? []), e]);
    }
  }

  /**
   * The entry covering a failed record, if any: line entries before
   * whole-file ones; entries whose failure mode differs are passed over.
   */
  lookup(file: string, line: number, failure: ObservedFailure): AllowEntry | undefined {
    const ok = (e: AllowEntry): boolean => !e.mode || modeCovers(e.mode, failure);
    return this.byKey.get(`${file}:${line}`)?.find(ok) ?? this.byKey.get(`${file}:*`)?.find(ok);
  }

  /** The entries naming this record's line (whatever their failure mode). */
  listed(file: string, line: number): readonly AllowEntry[] {
    return this.byKey.get(`${file}:${line}`) ?? [];
  }

  /** Every entry naming one record of the file (whole-file entries excluded). */
  recordEntries(file: string): readonly AllowEntry[] {
    return this.entries.filter((e) => e.file === file && e.line !== undefined);
  }

  /** Parses the TSV text; throws on a malformed line. */
  static parse(text: string): AllowList {
    const entries: AllowEntry[] = [];
    text.split(/\r?\n/).forEach((raw, i) => {
      if (raw.trim() === '' || raw.startsWith('#')) return;
      const [file, line, category, why, pattern] = raw.split('\t');
      const reason = (why ?? '').trim();
      if (!file || !line || !category || !CATEGORIES.has(category) || reason === '') {
        throw new Error(`allowlist line ${i + 1}: expected "file<TAB>line<TAB>bug|feature|dialect<TAB>reason", got "${raw}"`);
      }
      const n = line === '*' ? undefined : Number(line);
      if (n !== undefined && !Number.isInteger(n)) throw new Error(`allowlist line ${i + 1}: bad record line "${line}"`);
      let mode: FailureMode | undefined;
      try {
        mode = pattern && pattern.trim() !== '' ? parseMode(pattern) : undefined;
      } catch (e) {
        throw new Error(`allowlist line ${i + 1}: ${e instanceof Error ? e.message : String(e)}`);
      }
      const base = { file, category: category as AllowCategory, reason, ...(mode ? { mode } : {}) };
      entries.push(n === undefined ? base : { ...base, line: n });
    });
    return new AllowList(entries);
  }

  /** Loads a TSV file; a missing file is an empty list. */
  static load(path = DEFAULT_ALLOWLIST): AllowList {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return new AllowList([]);
    }
    return AllowList.parse(text);
  }
}
