/**
 * Just enough of npm's semver ranges to compare `engines.node` fields:
 * `||` unions, space-separated intersections, comparators `>= > <= < =`,
 * `^` and `~`, partial versions (`20`, `20.19`) and `x`/`*` wildcards.
 * A range becomes half-open intervals over versions encoded as integers
 * (major·10⁶ + minor·10³ + patch), so "is every version of A in B" is a
 * check at the intervals' boundaries, where membership can change. Written
 * here rather than taken from the `semver` package: the project does not
 * depend on it, and engines fields use only this subset (an unknown form
 * throws instead of guessing).
 */

/** A half-open interval [lo, hi) of encoded versions. */
export interface Interval {
  readonly lo: number;
  readonly hi: number;
}

const MAX = Number.MAX_SAFE_INTEGER;
const enc = (major: number, minor: number, patch: number): number => major * 1e6 + minor * 1e3 + patch;

/** A parsed partial version: missing or wildcard parts are undefined. */
interface Partial3 {
  readonly major?: number;
  readonly minor?: number;
  readonly patch?: number;
}

function parseVersion(v: string): Partial3 {
  const m = /^v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:-[0-9A-Za-z.-]+)?$/.exec(v);
  if (!m) throw new Error(`cannot read version "${v}"`);
  const part = (s: string | undefined): number | undefined => (s === undefined || /[xX*]/.test(s) ? undefined : Number(s));
  const major = part(m[1]);
  const minor = major === undefined ? undefined : part(m[2]);
  const patch = minor === undefined ? undefined : part(m[3]);
  return { major, minor, patch };
}

/** The versions a partial version names, as an interval (`20` is [20.0.0, 21.0.0)). */
function span(p: Partial3): Interval {
  if (p.major === undefined) return { lo: 0, hi: MAX };
  if (p.minor === undefined) return { lo: enc(p.major, 0, 0), hi: enc(p.major + 1, 0, 0) };
  if (p.patch === undefined) return { lo: enc(p.major, p.minor, 0), hi: enc(p.major, p.minor + 1, 0) };
  const v = enc(p.major, p.minor, p.patch);
  return { lo: v, hi: v + 1 };
}

function comparator(op: string, v: string): Interval {
  const p = parseVersion(v);
  const s = span(p);
  switch (op) {
    case '': case '=': return s;
    case '>=': return { lo: s.lo, hi: MAX };
    case '>': return { lo: s.hi, hi: MAX };
    case '<': return { lo: 0, hi: s.lo };
    case '<=': return { lo: 0, hi: s.hi };
    case '^': {
      if (p.major === undefined) return s;
      if (p.major > 0 || p.minor === undefined) return { lo: s.lo, hi: enc(p.major + 1, 0, 0) };
      if (p.minor > 0 || p.patch === undefined) return { lo: s.lo, hi: enc(0, p.minor + 1, 0) };
      return s;
    }
    case '~': {
      if (p.major === undefined || p.minor === undefined) return s;
      return { lo: s.lo, hi: enc(p.major, p.minor + 1, 0) };
    }
    default: throw new Error(`unknown operator "${op}"`);
  }
}

/** Parses a range into the union of its intervals. */
export function parseRange(range: string): Interval[] {
  const out: Interval[] = [];
  for (const alt of range.split('||')) {
    const tokens = alt.trim().replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1').split(/\s+/).filter((t) => t !== '');
    if (tokens.length === 0) { out.push({ lo: 0, hi: MAX }); continue; }
    let lo = 0;
    let hi = MAX;
    for (const t of tokens) {
      const m = /^(>=|<=|>|<|=|\^|~)?(.*)$/.exec(t)!;
      const i = comparator(m[1] ?? '', m[2]!);
      lo = Math.max(lo, i.lo);
      hi = Math.min(hi, i.hi);
    }
    if (lo < hi) out.push({ lo, hi });
  }
  return out;
}

const within = (x: number, r: readonly Interval[]): boolean => r.some((i) => x >= i.lo && x < i.hi);

/** Renders an encoded version. */
export function versionText(x: number): string {
  return `${Math.floor(x / 1e6)}.${Math.floor(x / 1e3) % 1e3}.${x % 1e3}`;
}

/**
 * Versions in `inner` that `outer` excludes: the lowest of each excluded
 * run; empty when inner ⊆ outer. Membership only changes at interval ends,
 * so checking every end (and the version just below it) is exhaustive.
 */
export function excludedVersions(inner: string, outer: string): string[] {
  const a = parseRange(inner);
  const b = parseRange(outer);
  const points = new Set<number>();
  for (const i of [...a, ...b]) for (const x of [i.lo, i.hi, i.lo - 1, i.hi - 1]) if (x >= 0 && x < MAX) points.add(x);
  const out: string[] = [];
  let inGap = false;
  for (const x of [...points].sort((p, q) => p - q)) {
    const excluded = within(x, a) && !within(x, b);
    if (excluded && !inGap) out.push(versionText(x));
    inGap = excluded;
  }
  return out;
}

/** True when `version` (e.g. process.versions.node) is in `range`. */
export function satisfies(version: string, range: string): boolean {
  return within(span(parseVersion(version)).lo, parseRange(range));
}
