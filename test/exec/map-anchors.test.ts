/**
 * exec/map-anchors.ts: with one instance of the hot per-query classes kept alive, a major GC between
 * queries no longer frees their hidden classes, so the kernels that check them stay optimized. A child
 * process warms a Q3-shaped join + aggregate, then runs it after major GCs under `--trace-deopt`; no hot
 * kernel may be deoptimized for "weak objects" after the warm-up. (Without the anchors, every run
 * deoptimized run1, runW, newGroup, buildSteps, moveSome, locate, isUsed, identityPairs and addSelected.)
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { anchoredInstances } from '../../src/exec/map-anchors.js';
import '../../src/exec/operators/hash-join.js';
import '../../src/exec/operators/agg-states.js';
import '../../src/exec/operators/agg-int-sum.js';

const HOT = ['run1', 'runW', 'run2', 'newGroup', 'buildSteps', 'moveSome', 'locate', 'isUsed', 'identityPairs', 'addSelected'];

describe('map anchors', () => {
  it('hold an instance of each anchored class', () => {
    const names = new Set(anchoredInstances().map((x) => (x as object).constructor.name));
    for (const n of ['KeyTable', 'PartedBatch', 'ProbeCursor', 'JoinOutput', 'SumDoubleState', 'CountState', 'SumIntState', 'AvgIntState']) expect(names.has(n), n).toBe(true);
  });

  it('keep the hot kernels optimized across major GCs between queries', () => {
    const child = fileURLToPath(new URL('./map-anchors-child.mts', import.meta.url));
    const r = spawnSync(process.execPath, ['--expose-gc', '--trace-deopt', '--import', 'tsx', child], { encoding: 'utf8', timeout: 120_000, maxBuffer: 64 << 20 });
    expect(r.status, r.stderr).toBe(0);
    const after = r.stdout.slice(r.stdout.indexOf('=== MEASURED'));
    expect(after.length).toBeGreaterThan(0);
    const weak = after.split('\n').filter((l) => l.includes('reason: weak objects')).map((l) => /SharedFunctionInfo ([^>]+)>/.exec(l)?.[1] ?? '');
    expect(weak.filter((f) => HOT.includes(f))).toEqual([]);
  }, 150_000);
});
