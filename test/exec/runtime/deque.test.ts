import { describe, expect, it } from 'vitest';
import { Deque } from '../../../src/exec/runtime/deque.js';

describe('Deque', () => {
  it('is FIFO across growth and wrap-around', () => {
    const q = new Deque<number>();
    const ref: number[] = [];
    let next = 0;
    for (let round = 0; round < 200; round++) {
      const pushes = (round * 7) % 23;
      for (let i = 0; i < pushes; i++) { q.push(next); ref.push(next++); }
      const pops = (round * 5) % 19;
      for (let i = 0; i < pops; i++) expect(q.shift()).toBe(ref.shift());
      expect(q.length).toBe(ref.length);
      expect(q.peek()).toBe(ref[0]);
    }
    q.clear();
    expect(q.length).toBe(0);
    expect(q.shift()).toBeUndefined();
  });
});
