import { describe, expect, test } from 'vitest';
import { BoundedMap } from '../../src/search/bounded-map.js';

describe('BoundedMap (the memos of search: term hits, corrections, cards, summary lines)', () => {
  test('remembers a value and returns it', () => {
    const memo = new BoundedMap<string, number>(3);
    expect(memo.remember('a', 1)).toBe(1);
    expect(memo.get('a')).toBe(1);
  });

  test('never holds more than its bound: full, it empties before storing the next value', () => {
    const memo = new BoundedMap<number, number>(3);
    for (let i = 0; i < 3; i++) memo.remember(i, i);
    expect(memo.size).toBe(3);
    memo.remember(3, 3);
    expect([...memo.keys()]).toEqual([3]);
    for (let i = 4; i < 100; i++) memo.remember(i, i);
    expect(memo.size).toBeLessThanOrEqual(3);
  });
});
