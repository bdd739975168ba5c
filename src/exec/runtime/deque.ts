/**
 * A FIFO queue with O(1) push and shift: a ring buffer that doubles when full.
 *
 * Decision: channel queues can grow long (a held-back build side, a feedback
 * edge), and `Array.prototype.shift` is O(n) there; a ring keeps every
 * dequeue constant-time and never copies on the hot path.
 */
/**
 * The buffer of every empty deque: length 0, so the first push or unshift grows it before any write
 * (never written). Holey like the grown buffers, so element loads stay monomorphic.
 */
const EMPTY: readonly unknown[] = new Array<unknown>(0);

export class Deque<T> {
  /** Empty until the first push: most channels deliver synchronously and never queue. */
  private buf: (T | undefined)[] = EMPTY as (T | undefined)[];
  private head = 0;
  private size = 0;

  get length(): number {
    return this.size;
  }

  push(x: T): void {
    if (this.size === this.buf.length) this.grow();
    this.buf[(this.head + this.size) & (this.buf.length - 1)] = x;
    this.size++;
  }

  /** Puts `x` in front of the oldest element (it is shifted next). */
  unshift(x: T): void {
    if (this.size === this.buf.length) this.grow();
    this.head = (this.head - 1) & (this.buf.length - 1);
    this.buf[this.head] = x;
    this.size++;
  }

  /** The oldest element, without removing it. */
  peek(): T | undefined {
    return this.size === 0 ? undefined : this.buf[this.head];
  }

  shift(): T | undefined {
    if (this.size === 0) return undefined;
    const x = this.buf[this.head];
    this.buf[this.head] = undefined;
    this.head = (this.head + 1) & (this.buf.length - 1);
    this.size--;
    return x;
  }

  /** The elements, oldest first, without removing them. */
  toArray(): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.size; i++) out.push(this.buf[(this.head + i) & (this.buf.length - 1)]!);
    return out;
  }

  clear(): void {
    if (this.size === 0) return;
    this.buf = EMPTY as (T | undefined)[];
    this.head = 0;
    this.size = 0;
  }

  private grow(): void {
    const old = this.buf;
    const next = new Array<T | undefined>(old.length === 0 ? 8 : old.length * 2);
    for (let i = 0; i < this.size; i++) next[i] = old[(this.head + i) & (old.length - 1)];
    this.buf = next;
    this.head = 0;
  }
}
