/**
 * Per-epoch operator state (DESIGN.md "exec": one helper instead of the same
 * drain loop in every pipeline breaker): a state is created on the first
 * batch of its epoch, and a watermark w drains every epoch ≤ w in ascending
 * order, removing each before its callback runs (so a callback that fails or
 * defers output never sees it twice).
 */

/** States keyed by epoch. */
export class EpochStates<S> {
  private readonly states = new Map<number, S>();

  constructor(private readonly create: (epoch: number) => S) {}

  /** The state of `epoch`, created on first use. */
  get(epoch: number): S {
    let s = this.states.get(epoch);
    if (s === undefined) { s = this.create(epoch); this.states.set(epoch, s); }
    return s;
  }

  /** The state of `epoch` if it exists. */
  peek(epoch: number): S | undefined {
    return this.states.get(epoch);
  }

  has(epoch: number): boolean {
    return this.states.has(epoch);
  }

  get size(): number {
    return this.states.size;
  }

  /** Removes every epoch ≤ w and hands each to `f`, oldest first. */
  drainUpTo(w: number, f: (state: S, epoch: number) => void): void {
    if (this.states.size === 0) return;
    if (this.states.size === 1) { // a batch query's one epoch: no list to sort
      const e = this.states.keys().next().value!;
      if (e > w) return;
      const s = this.states.get(e)!;
      this.states.delete(e);
      f(s, e);
      return;
    }
    const done: number[] = [];
    for (const e of this.states.keys()) if (e <= w) done.push(e);
    if (done.length > 1) done.sort((a, b) => a - b);
    for (const e of done) {
      const s = this.states.get(e)!;
      this.states.delete(e);
      f(s, e);
    }
  }

  /** Drops every epoch ≤ w without looking at it. */
  dropUpTo(w: number): void {
    for (const e of [...this.states.keys()]) if (e <= w) this.states.delete(e);
  }

  clear(): void {
    this.states.clear();
  }
}
