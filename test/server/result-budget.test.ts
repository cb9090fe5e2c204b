// Stored full results under one byte budget for the whole process (audit of execute_tool against odd upstreams,
// item 2): many sessions each storing large results could otherwise grow the server's memory without bound. The
// real memory state store; a small budget stands in for the 64 MiB one.
import { describe, expect, test } from 'vitest';
import { RESULT_BUDGET_BYTES, ResultBudget, ResultStore } from '../../src/server/results.js';
import { MemoryStateStore } from '../../src/state/index.js';

const TTL = 60_000;
const text = (n: number, c = 'x') => c.repeat(n - 2); // JSON.stringify adds the two quotes

describe('stored results share one byte budget across sessions', () => {
  test('the oldest results go first, in any session, when a new one needs room', async () => {
    const state = new MemoryStateStore();
    const budget = new ResultBudget(1_000);
    const stores = ['s1', 's2', 's3'].map((session) => new ResultStore(state, { principal: 'p', session }, TTL, 20, undefined, budget));
    const uris: string[] = [];
    for (let i = 0; i < 6; i++) uris.push((await stores[i % 3]!.put(text(300, String(i))))!);
    // 6 × 300 bytes under a 1,000-byte budget: the three newest fit
    expect(budget.bytes).toBe(900);
    for (let i = 0; i < 6; i++) {
      const got = await stores[i % 3]!.get(uris[i]!);
      if (i < 3) expect(got).toBeUndefined();
      else expect(got?.text).toBe(JSON.stringify(text(300, String(i))));
    }
    // a listed result is one that can be read
    expect((await stores[0]!.list()).map((r) => r.uri)).toEqual([uris[3]]);
  });

  test("a result the store evicts past its session's count frees its bytes, so other sessions' results stay", async () => {
    const state = new MemoryStateStore();
    const budget = new ResultBudget(1_000);
    const busy = new ResultStore(state, { principal: 'p', session: 'busy' }, TTL, 2, undefined, budget);
    const other = new ResultStore(state, { principal: 'q', session: 'other' }, TTL, 20, undefined, budget);
    const kept = (await other.put(text(300)))!;
    // the busy session keeps at most 2: each put past that evicts its oldest, whose text must leave the budget
    for (let i = 0; i < 5; i++) await busy.put(text(300, String(i)));
    expect(budget.bytes).toBe(900);
    expect((await other.get(kept))?.text).toBe(JSON.stringify(text(300)));
  });

  test('the per-result cap counts bytes: a non-ASCII text over it is not kept', async () => {
    const store = new ResultStore(new MemoryStateStore(), { principal: 'p', session: 's' }, TTL, 20, 1_000, new ResultBudget(10_000));
    // 500 characters, 1,500 bytes in UTF-8
    expect(await store.put('€'.repeat(500))).toBeUndefined();
    expect(await store.put('e'.repeat(500))).toBeDefined();
  });

  test('a result larger than the whole budget is not kept, and evicts nothing', async () => {
    const state = new MemoryStateStore();
    const budget = new ResultBudget(1_000);
    const store = new ResultStore(state, { principal: 'p', session: 's' }, TTL, 20, undefined, budget);
    const kept = await store.put(text(500));
    expect(await store.put(text(1_001))).toBeUndefined();
    expect((await store.get(kept!))?.text).toBe(JSON.stringify(text(500)));
    expect(budget.bytes).toBe(500);
  });

  test('expired results free their bytes; another session cannot read one', async () => {
    let now = 0;
    const state = new MemoryStateStore(() => now);
    const budget = new ResultBudget(1_000, () => now);
    const mine = new ResultStore(state, { principal: 'p', session: 'a' }, TTL, 20, undefined, budget);
    const other = new ResultStore(state, { principal: 'q', session: 'b' }, TTL, 20, undefined, budget);
    const uri = (await mine.put(text(600)))!;
    expect(await other.get(uri)).toBeUndefined();
    now += TTL;
    expect(await mine.get(uri)).toBeUndefined();
    await other.put(text(600));
    expect(budget.bytes).toBe(600);
  });

  test('results are stored as compact JSON, counted by their length; the process budget is 64 MiB', async () => {
    const budget = new ResultBudget(10_000);
    const store = new ResultStore(new MemoryStateStore(), { principal: 'p', session: 's' }, TTL, 20, undefined, budget);
    const value = { items: [{ id: 1, name: 'a' }], nested: { deep: [1, 2] } };
    const uri = (await store.put(value))!;
    expect((await store.get(uri))?.text).toBe(JSON.stringify(value));
    expect(budget.bytes).toBe(JSON.stringify(value).length);
    expect(RESULT_BUDGET_BYTES).toBe(64 * 1024 * 1024);
  });
});
