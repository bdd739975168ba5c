/**
 * The Node versions package.json's `engines` declares are the ones every
 * runtime dependency supports: each package of the production closure
 * (direct dependencies and theirs, read from node_modules/<name>/package.json)
 * must accept every version in our range, so no pinned version may need a
 * newer Node than we promise (and no global polyfill may paper over it).
 * Dev dependencies are tools for working on eddy, not part of what users
 * install: they must run on the Node running the tests, and where they
 * exclude part of our range the gap is printed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { excludedVersions, parseRange, satisfies } from './helpers/node-range.js';

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly engines?: { readonly node?: string };
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
}

const ROOT = resolve(__dirname, '..');
const read = (p: string): Manifest => JSON.parse(readFileSync(p, 'utf8')) as Manifest;
const own = read(join(ROOT, 'package.json'));
const OURS = own.engines?.node ?? '';

/** Node's resolution: the nearest node_modules/<name> from `from` upwards. */
function locate(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const p = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(p)) return p;
    if (dirname(dir) === dir) return undefined;
  }
}

/** Every package reachable through `dependencies` from the given names. */
function closure(names: readonly string[]): Map<string, Manifest> {
  const seen = new Map<string, Manifest>();
  const visit = (name: string, from: string, optional: boolean): void => {
    const p = locate(name, from);
    if (p === undefined) {
      if (!optional) throw new Error(`${name} is not installed (needed from ${from})`);
      return;
    }
    if (seen.has(p)) return;
    const m = read(p);
    seen.set(p, m);
    for (const d of Object.keys(m.dependencies ?? {})) visit(d, dirname(p), false);
    for (const d of Object.keys(m.optionalDependencies ?? {})) visit(d, dirname(p), true);
  };
  for (const n of names) visit(n, ROOT, false);
  return seen;
}

describe('Node version range', () => {
  it('the range reader understands engines fields', () => {
    expect(excludedVersions('>=20', '>=22.0.0')).toEqual(['20.0.0']);
    expect(excludedVersions('>=20', '20||>=22')).toEqual(['21.0.0']);
    expect(excludedVersions('>=20', '^20.19.0 || >=22.12.0')).toEqual(['20.0.0', '21.0.0']);
    expect(excludedVersions('>=20', '>= 18')).toEqual([]);
    expect(excludedVersions('>=20', '14 || >=16.14')).toEqual([]);
    expect(excludedVersions('>=20', '^20.0.0 || ^22.0.0 || >=24.0.0')).toEqual(['21.0.0', '23.0.0']);
    expect(excludedVersions('>=20', '>=20 <24')).toEqual(['24.0.0']);
    expect(excludedVersions('>=20', '*')).toEqual([]);
    expect(satisfies('20.20.2', '^20.19.0 || >=22.12.0')).toBe(true);
    expect(satisfies('20.11.0', '^20.19.0 || >=22.12.0')).toBe(false);
    expect(() => parseRange('>=twenty')).toThrow(/cannot read version/);
  });

  it('package.json declares one', () => {
    expect(parseRange(OURS).length, 'engines.node is missing or empty').toBeGreaterThan(0);
    expect(satisfies(process.versions.node, OURS), `the tests run on Node ${process.versions.node}, outside engines.node "${OURS}"`).toBe(true);
  });
});

describe('dependencies support the Node versions engines declares', () => {
  it('every package the runtime dependencies pull in accepts the whole range', () => {
    const bad: string[] = [];
    for (const m of closure(Object.keys(own.dependencies ?? {})).values()) {
      const theirs = m.engines?.node;
      if (theirs === undefined) continue;
      const gaps = excludedVersions(OURS, theirs);
      if (gaps.length > 0) bad.push(`${m.name}@${m.version} needs node "${theirs}", excluding ${gaps.join(', ')} of our "${OURS}"`);
    }
    expect(bad, `pin versions that support engines.node "${OURS}":\n${bad.join('\n')}`).toEqual([]);
  });

  it('dev dependencies run on this Node; their gaps in our range are reported', () => {
    const wrong: string[] = [];
    for (const name of Object.keys(own.devDependencies ?? {})) {
      const p = locate(name, ROOT);
      expect(p, `${name} is not installed`).toBeDefined();
      const m = read(p!);
      const theirs = m.engines?.node;
      if (theirs === undefined) continue;
      if (!satisfies(process.versions.node, theirs)) wrong.push(`${name}@${m.version} needs node "${theirs}"`);
      const gaps = excludedVersions(OURS, theirs);
      if (gaps.length > 0) console.warn(`dev dependency ${name}@${m.version} (node "${theirs}") does not support ${gaps.join(', ')} of our "${OURS}": developing eddy needs a supported Node there`);
    }
    expect(wrong, `dev dependencies that do not run on Node ${process.versions.node}`).toEqual([]);
  });
});
