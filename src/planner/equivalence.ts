/**
 * Equivalence classes of column ids under written equalities (`a = b AND b = c` puts a, b and c
 * in one class): a union-find over sparse ids. Used by reorder-joins (implied join edges) and
 * join-region (dropping an equality that the ones applied below already imply).
 *
 * Decision: a Map, not an array — column ids are global over a join region and only the few that
 * appear in equalities take part. Path halving keeps finds short; classes stay tiny.
 */
export class ColumnClasses {
  private readonly parent = new Map<number, number>();
  private readonly members = new Set<number>();

  /** The class representative of `x` (x itself when it is in no equality). */
  find(x: number): number {
    for (;;) {
      const p = this.parent.get(x);
      if (p === undefined) return x;
      const g = this.parent.get(p);
      if (g === undefined) return p;
      this.parent.set(x, g);
      x = g;
    }
  }

  /** Puts a and b in one class; false when they already were in one. */
  unite(a: number, b: number): boolean {
    this.members.add(a);
    this.members.add(b);
    const x = this.find(a), y = this.find(b);
    if (x === y) return false;
    this.parent.set(x, y);
    return true;
  }

  /** Every id that took part in an equality, in first-seen order. */
  ids(): IterableIterator<number> {
    return this.members.values();
  }
}
