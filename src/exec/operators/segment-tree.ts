/**
 * Segment trees for sliding window aggregates (DuckDB's WindowSegmentTree):
 * leaves are a partition's rows, each inner node combines its two children,
 * and a frame [l, r) is answered by combining O(log m) nodes — so every
 * frame shape costs O(m log m) per partition, never O(m · frame).
 *
 * The trees are iterative and bottom-up (leaves at m..2m−1, node k's
 * children 2k and 2k+1), built in O(m). Three kinds cover the built-in
 * aggregates: a Float64 sum, the index of the minimum (or maximum) under a
 * row comparator (any type: the result is gathered from the argument
 * column), and (count, mean, M2) moments for the standard deviation,
 * combined with Chan et al.'s pairwise update.
 */

/** Sums of Float64 leaves (NULL leaves hold 0). */
export class SumTree {
  private readonly t: Float64Array;
  constructor(private readonly m: number, leaf: (j: number) => number) {
    const t = new Float64Array(2 * m);
    for (let j = 0; j < m; j++) t[m + j] = leaf(j);
    for (let k = m - 1; k >= 1; k--) t[k] = t[2 * k]! + t[2 * k + 1]!;
    this.t = t;
  }

  /** The sum of leaves [l, r). */
  query(l: number, r: number): number {
    const t = this.t;
    let left = 0;
    let right = 0;
    for (l += this.m, r += this.m; l < r; l >>= 1, r >>= 1) {
      if (l & 1) left += t[l++]!;
      if (r & 1) right = t[--r]! + right;
    }
    return left + right;
  }
}

/**
 * The best leaf index under `better(a, b)` (a strictly better than b) among
 * leaves [l, r), ignoring leaves marked absent (NULL); −1 when none. Ties keep
 * the leftmost leaf.
 */
export class ArgBestTree {
  private readonly t: Int32Array;
  constructor(private readonly m: number, present: (j: number) => boolean, private readonly better: (a: number, b: number) => boolean) {
    const t = new Int32Array(2 * m).fill(-1);
    for (let j = 0; j < m; j++) if (present(j)) t[m + j] = j;
    for (let k = m - 1; k >= 1; k--) t[k] = this.pick(t[2 * k]!, t[2 * k + 1]!);
    this.t = t;
  }

  private pick(a: number, b: number): number {
    if (a < 0) return b;
    if (b < 0) return a;
    return this.better(b, a) ? b : a;
  }

  query(l: number, r: number): number {
    const t = this.t;
    let left = -1;
    let right = -1;
    for (l += this.m, r += this.m; l < r; l >>= 1, r >>= 1) {
      if (l & 1) left = this.pick(left, t[l++]!);
      if (r & 1) right = this.pick(t[--r]!, right);
    }
    return this.pick(left, right);
  }
}

/** Count, mean and sum of squared deviations of Float64 leaves (NULL leaves are empty). */
export class MomentsTree {
  private readonly n: Float64Array;
  private readonly mean: Float64Array;
  private readonly m2: Float64Array;
  /** The result of the last query. */
  count = 0;
  avg = 0;
  sq = 0;

  constructor(private readonly m: number, present: (j: number) => boolean, leaf: (j: number) => number) {
    this.n = new Float64Array(2 * m);
    this.mean = new Float64Array(2 * m);
    this.m2 = new Float64Array(2 * m);
    for (let j = 0; j < m; j++) if (present(j)) { this.n[m + j] = 1; this.mean[m + j] = leaf(j); }
    for (let k = m - 1; k >= 1; k--) this.combineInto(k, 2 * k, 2 * k + 1);
  }

  private combineInto(k: number, a: number, b: number): void {
    const na = this.n[a]!; const nb = this.n[b]!;
    const n = na + nb;
    if (n === 0) { this.n[k] = 0; this.mean[k] = 0; this.m2[k] = 0; return; }
    const d = this.mean[b]! - this.mean[a]!;
    this.n[k] = n;
    this.mean[k] = this.mean[a]! + (d * nb) / n;
    this.m2[k] = this.m2[a]! + this.m2[b]! + (d * d * na * nb) / n;
  }

  /** Folds node k into the running (count, avg, sq). */
  private add(k: number): void {
    const nb = this.n[k]!;
    if (nb === 0) return;
    const na = this.count;
    const n = na + nb;
    const d = this.mean[k]! - this.avg;
    this.avg += (d * nb) / n;
    this.sq += this.m2[k]! + (d * d * na * nb) / n;
    this.count = n;
  }

  /** Combines leaves [l, r) into count / avg / sq. */
  query(l: number, r: number): void {
    this.count = 0; this.avg = 0; this.sq = 0;
    const rights: number[] = [];
    for (l += this.m, r += this.m; l < r; l >>= 1, r >>= 1) {
      if (l & 1) this.add(l++);
      if (r & 1) rights.push(--r);
    }
    for (let k = rights.length - 1; k >= 0; k--) this.add(rights[k]!);
  }
}
