// A long request (five or more concepts of its own) counts the share of it an operation covers linearly, not squared
// (signals.ts, LONG_REQUEST_COVERAGE_POWER; SearchTuning.longRequestConcepts): a sentence in the user's words carries
// more than the operation it asks for, so the operation that covers most of its words should not win by that alone.
import { describe, expect, it } from 'vitest';
import { SearchIndex } from '../../src/search/index.js';
import { LONG_REQUEST_COVERAGE_POWER, requestCoveragePower, type SignalTuning } from '../../src/search/signals.js';
import { DEFAULT_TUNING } from '../../src/search/tuning.js';
import { domainsOf, op } from './helpers.js';

const OPS = [
  op({ name: 'holdOrder', method: 'post', path: '/orders/{id}/hold', summary: 'Put an order on hold' }, ['id']),
  op({ name: 'confirmCustomerAddress', method: 'post', path: '/customers/{id}/address/confirm', summary: 'Confirm a customer address' }, ['id']),
  op({ name: 'listOrders', path: '/orders', summary: 'List orders' }),
];

/** The coverage factor explain gives `name` for `query` under `tuning`. */
function coverageOf(index: SearchIndex, query: string, name: string): { coverage: number; factor: number } {
  const hit = index.search(query, { explain: true, limit: 10 }).results.find((h) => h.name === name);
  const explain = hit?.explain;
  if (explain === undefined) throw new Error(`${name} not found for "${query}"`);
  return { coverage: explain.coverage, factor: explain.signals.find((s) => s.name === 'coverage')?.factor ?? NaN };
}

describe('coverage of a long request', () => {
  const index = SearchIndex.build(OPS, domainsOf(OPS), { signalWeights: {} });
  const off = SearchIndex.build(OPS, domainsOf(OPS), { signalWeights: {}, longRequestConcepts: Infinity });

  it('a short request squares the covered share; a long one counts it linearly; Infinity turns the rule off', () => {
    const short = coverageOf(index, 'hold order', 'holdOrder');
    expect(short.factor).toBeCloseTo(0.25 + 0.75 * short.coverage ** 2, 9);
    const sentence = 'Put order 456 on hold until the customer confirms their address';
    const long = coverageOf(index, sentence, 'holdOrder');
    expect(long.coverage).toBeGreaterThan(0);
    expect(long.coverage).toBeLessThan(1);
    expect(long.factor).toBeCloseTo(0.25 + 0.75 * long.coverage, 9);
    const without = coverageOf(off, sentence, 'holdOrder');
    expect(without.factor).toBeCloseTo(0.25 + 0.75 * without.coverage ** 2, 9);
    expect(without.factor).toBeLessThan(long.factor);
  });

  it('the count is of the request\'s own concepts: the agent\'s keywords do not make a call long', () => {
    const tuning: SignalTuning = { ...DEFAULT_TUNING, coveragePower: 2 };
    const plan = (n: number, keywords: number) =>
      ({ concepts: [...Array.from({ length: n }, () => ({})), ...Array.from({ length: keywords }, () => ({ keyword: true }))] }) as never;
    expect(requestCoveragePower(plan(4, 3), tuning)).toBe(2);
    expect(requestCoveragePower(plan(5, 0), tuning)).toBe(LONG_REQUEST_COVERAGE_POWER);
    expect(requestCoveragePower(plan(9, 0), { ...tuning, longRequestConcepts: Infinity })).toBe(2);
  });

  it('explain says what the live tuning does', () => {
    const read = index.search('hold order', { explain: true }).signals?.find((s) => s.name === 'coverage')?.reads;
    expect(read).toBe("idf-weighted share of the query's concepts matched: x(0.25 + 0.75 cov^2); cov^1 for a request of 5 or more concepts");
    expect(off.search('hold order', { explain: true }).signals?.find((s) => s.name === 'coverage')?.reads).toBe("idf-weighted share of the query's concepts matched: x(0.25 + 0.75 cov^2)");
  });
});
