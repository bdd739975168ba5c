/**
 * The default `parallelism` (environment-options.ts defaultParallelism): the machine's cores up
 * to MAX_DEFAULT_PARALLELISM, or EDDY_PARALLELISM. Every check passes its own cores and variables,
 * so none depends on the machine that runs it.
 */
import { availableParallelism } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultParallelism, MAX_DEFAULT_PARALLELISM } from '../../src/api/environment-options.js';
import { TableEnvironment } from '../../src/api/environment.js';

describe('default parallelism', () => {
  const saved = process.env['EDDY_PARALLELISM'];
  afterEach(() => { if (saved === undefined) delete process.env['EDDY_PARALLELISM']; else process.env['EDDY_PARALLELISM'] = saved; });

  it('is the cores, at least 1 and at most MAX_DEFAULT_PARALLELISM', () => {
    expect(defaultParallelism({}, 1)).toBe(1);
    expect(defaultParallelism({}, 2)).toBe(2);
    expect(defaultParallelism({}, 6)).toBe(6);
    expect(MAX_DEFAULT_PARALLELISM).toBe(8);
    expect(defaultParallelism({}, 96)).toBe(8);
    expect(defaultParallelism({}, 0)).toBe(1);
  });

  it('EDDY_PARALLELISM overrides it (above the cap too); empty means unset', () => {
    expect(defaultParallelism({ EDDY_PARALLELISM: '1' }, 16)).toBe(1);
    expect(defaultParallelism({ EDDY_PARALLELISM: ' 3 ' }, 2)).toBe(3);
    expect(defaultParallelism({ EDDY_PARALLELISM: '12' }, 2)).toBe(12);
    expect(defaultParallelism({ EDDY_PARALLELISM: '' }, 4)).toBe(4);
  });

  it('a bad EDDY_PARALLELISM is an error naming the variable', () => {
    for (const v of ['0', '-2', '65', '1.5', 'two', 'NaN']) {
      expect(() => defaultParallelism({ EDDY_PARALLELISM: v }, 2)).toThrow(`EDDY_PARALLELISM must be an integer from 1 to 64, got '${v}'`);
    }
  });

  it('an environment created without one takes it; an explicit parallelism wins over the variable', async () => {
    process.env['EDDY_PARALLELISM'] = '3';
    const a = TableEnvironment.create();
    const b = TableEnvironment.create({ parallelism: 1 });
    delete process.env['EDDY_PARALLELISM'];
    const c = TableEnvironment.create();
    try {
      expect(a.options.parallelism).toBe(3);
      expect(b.options.parallelism).toBe(1);
      expect(c.options.parallelism).toBe(Math.min(MAX_DEFAULT_PARALLELISM, availableParallelism()));
    } finally {
      for (const e of [a, b, c]) await e.close();
    }
  });
});
