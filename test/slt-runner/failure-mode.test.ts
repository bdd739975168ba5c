/**
 * The allow-list covers a record only while it fails the way its entry
 * records: a different wrong answer, a different error, or a wrong answer
 * where an error was recorded is an unexpected failure. Also: the modes a
 * run writes with `--update-allowlist`, and stale entries.
 */
import { describe, expect, it } from 'vitest';
import { AllowList } from './allowlist.js';
import { updateAllowlist } from './allowlist-update.js';
import type { EngineResult, SltEngine } from './engine.js';
import { eddyFactory } from './engine.js';
import { SLOW_PATTERN, modeCovers, modeTextOf, parseMode, resultHash } from './failure-mode.js';
import { runText } from './run-file.js';
import { summarizeFile } from './summary.js';

const FILE = 'duckdb/test/sql/x.test';
const PATH = `/s/slt/${FILE}`;

/** An engine that answers every query with one integer, or fails with an error. */
function answering(answer: number | Error): SltEngine {
  return {
    execute: () => (answer instanceof Error
      ? Promise.reject(answer)
      : Promise.resolve<EngineResult>({ kind: 'rows', names: ['x'], kinds: ['integer'], rows: [[answer]] })),
    close: async () => undefined,
  };
}

/** The expected answer is 2; the engine gets it wrong. */
const TEXT = 'query I\nSELECT 1 + 1\n----\n2\n';

async function summary(allowText: string, engine: SltEngine) {
  const run = await runText(PATH, TEXT, engine);
  return summarizeFile(FILE, run, AllowList.parse(allowText), 1);
}

describe('failure modes in the allow-list', () => {
  it('covers only the recorded wrong answer: another wrong answer is unexpected', async () => {
    const listed = `${FILE}\t1\tbug\tgives 3\trows:${resultHash(['3'], false)}\n`;
    const same = await summary(listed, answering(3));
    expect(same.unexpected).toEqual([]);
    expect(same.allowedFailures).toBe(1);

    const other = await summary(listed, answering(4));
    expect(other.allowedFailures).toBe(0);
    expect(other.unexpected.map((u) => u.line)).toEqual([1]);
    expect(other.unexpected[0]!.changed).toEqual({ category: 'bug', reason: 'gives 3', mode: `rows:${resultHash(['3'], false)}` });
    expect(other.unexpected[0]!.mode).toBe(`rows:${resultHash(['4'], false)}`);
  });

  it('covers only the recorded error: another error, or a wrong answer instead, is unexpected', async () => {
    const listed = `${FILE}\t1\tfeature\tfunction nvl is not implemented\terror:^unexpected error: unknown function "nvl"$\n`;
    expect((await summary(listed, answering(new Error('unknown function "nvl"')))).unexpected).toEqual([]);
    expect((await summary(listed, answering(new Error('unknown function "nvl2"')))).unexpected).toHaveLength(1);
    expect((await summary(listed, answering(7))).unexpected).toHaveLength(1);
  });

  it('with the real engine: an entry recording another wrong answer does not cover the record', async () => {
    const engine = await eddyFactory();
    try {
      const run = await runText(PATH, TEXT.replace('----\n2', '----\n3'), engine);
      const o = run.outcomes[0]!;
      expect(o.status).toBe('failed');
      expect(modeTextOf(o)).toBe(`rows:${resultHash(['2'], false)}`);
      const right = summarizeFile(FILE, run, AllowList.parse(`${FILE}\t1\tbug\tx\t${modeTextOf(o)}\n`), 1);
      expect(right.unexpected).toEqual([]);
      const wrong = summarizeFile(FILE, run, AllowList.parse(`${FILE}\t1\tbug\tx\trows:${resultHash(['5'], false)}\n`), 1);
      expect(wrong.unexpected).toHaveLength(1);
    } finally {
      await engine.close();
    }
  });

  it('records paths into the suite without the checkout-specific prefix (a CI clone lays shared/ elsewhere)', () => {
    const at = (root: string, file = 'y.csv'): string => `unexpected error: read_csv('${root}/slt/x/${file}'): cannot open csv file ${root}/slt/x/${file}: ENOENT`;
    const m = parseMode(modeTextOf({ reason: at('/work/shared') }));
    expect(modeCovers(m, { reason: at('/tmp/ci-1234/shared') })).toBe(true);
    expect(modeCovers(m, { reason: at('/tmp/ci-1234/shared', 'z.csv') })).toBe(false);
  });

  it('records messages exactly, timings and the too-slow family loosely', () => {
    const m = modeTextOf({ reason: 'unexpected error: column "a.b" (x) not found' });
    expect(m).toBe('error:^unexpected error: column "a\\.b" \\(x\\) not found$');
    expect(modeCovers(parseMode(m), { reason: 'unexpected error: column "a.b" (x) not found' })).toBe(true);
    expect(modeCovers(parseMode(m), { reason: 'unexpected error: column "aXb" (x) not found' })).toBe(false);
    const moved = parseMode(modeTextOf({ reason: 'unexpected error: line 1, column 8: unknown function "nvl"' }));
    expect(modeCovers(moved, { reason: 'unexpected error: line 3, column 12: unknown function "nvl"' })).toBe(true);
    expect(modeCovers(moved, { reason: 'unexpected error: line 3, column 12: unknown function "nvl2"' })).toBe(false);
    expect(modeTextOf({ reason: 'timeout after 10000 ms' })).toBe(`error:${SLOW_PATTERN}`);
    expect(modeTextOf({ reason: 'unexpected error: timeout after 10000 ms' })).toBe(`error:${SLOW_PATTERN}`);
    expect(modeCovers(parseMode(modeTextOf({ reason: 'not run: the time budget of the file ran out' })), { reason: 'hung: no progress for 20000 ms' })).toBe(true);
    expect(parseMode('timeout|hung')).toEqual({ kind: 'error', pattern: /timeout|hung/ });
    expect(() => AllowList.parse(`${FILE}\t1\tbug\tx\trows:nothex\n`)).toThrow(/allowlist line 1: bad result hash/);
  });

  it('hashes rows sorted unless their order is pinned', () => {
    expect(resultHash(['b', 'a'], false)).toBe(resultHash(['a', 'b'], false));
    expect(resultHash(['b', 'a'], true)).not.toBe(resultHash(['a', 'b'], true));
  });
});

describe('stale entries and --update-allowlist', () => {
  it('reports an entry whose record passes, and one naming no record', async () => {
    const s = await summary(`${FILE}\t1\tbug\tfixed since\trows:${resultHash(['3'], false)}\n${FILE}\t40\tbug\tgone\n`, answering(2));
    expect(s.nowPassing).toEqual([
      { line: 1, reason: 'fixed since', status: 'passed' },
      { line: 40, reason: 'gone', status: 'no record at this line' },
    ]);
  });

  it('writes the observed modes, removes stale entries, keeps comments, reasons and whole-file entries', async () => {
    const text = `# header\n${FILE}\t1\tbug\tgives a wrong answer\n${FILE}\t40\tbug\tgone\n${FILE}\t*\tbug\tslow\t${SLOW_PATTERN}\n`;
    const s = await summary(text, answering(4));
    const u = updateAllowlist(text, [s]);
    expect(u.text).toBe(`# header\n${FILE}\t1\tbug\tgives a wrong answer\trows:${resultHash(['4'], false)}\n${FILE}\t*\tbug\tslow\t${SLOW_PATTERN}\n`);
    expect(u.recorded).toEqual([`${FILE}:1`]);
    expect(u.removed).toEqual([`${FILE}:40`]);
    // Rewritten, the list covers exactly this failure.
    expect((await summary(u.text, answering(4))).unexpected).toEqual([]);
    expect((await summary(u.text, answering(5))).unexpected).toHaveLength(1);
  });

  it('does not add failures that have no entry', async () => {
    const s = await summary('', answering(4));
    const u = updateAllowlist('', [s]);
    expect(u.text).toBe('');
    expect(u.unlisted).toEqual([`${FILE}:1`]);
  });
});
