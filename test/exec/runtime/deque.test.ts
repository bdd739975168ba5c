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

  it('grows from its empty start on push and on unshift, also after clear', () => {
    const a = new Deque<number>();
    a.unshift(1);
    a.push(2);
    a.unshift(0);
    expect(a.toArray()).toEqual([0, 1, 2]);
    a.clear();
    expect(a.peek()).toBeUndefined();
    a.unshift(5);
    for (let i = 6; i < 20; i++) a.push(i);
    expect(a.toArray()).toEqual(Array.from({ length: 15 }, (_, i) => i + 5));
    const b = new Deque<string>();
    expect(b.toArray()).toEqual([]);
    b.push('x');
    expect(b.shift()).toBe('x');
    expect(new Deque<number>().length).toBe(0); // a fresh deque shares nothing written by another
  });
});
