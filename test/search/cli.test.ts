// `api-catalog search` with --explain and --keywords, run in-process on the committed GitHub catalog.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { explainLine, run } from '../../src/cli/search.js';
import { LEARNED_WEIGHTS } from '../../src/search/weights.js';

function capture(): { out: () => string; restore: () => void } {
  let text = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    text += String(chunk);
    return true;
  });
  return { out: () => text, restore: () => spy.mockRestore() };
}

afterEach(() => vi.restoreAllMocks());

describe('api-catalog search', () => {
  it('--explain prints each hit\'s retrieval score, coverage and signal factors under it', async () => {
    const c = capture();
    const code = await run(['list repository webhooks', '--limit', '2', '--explain']);
    c.restore();
    expect(code).toBe(0);
    const lines = c.out().split('\n');
    expect(lines[0]).toBe('read as: list repository webhooks; head noun: webhooks; method: GET; shape: collection; scope: repos');
    // then each unit's reading, then what the signals read with the weights in use
    expect(lines).toContain(`  ${'head-noun'.padEnd(18)}webhooks`);
    expect(lines).toContain(`  ${'method'.padEnd(18)}GET (list)`);
    expect(lines).toContain('ranked by (weights in use):');
    const at = lines.findIndex((l) => /^ {2}1\. /.test(l));
    expect(lines[at]).toMatch(/^ {2}1\. 1\.000 {2}repos_list-webhooks/);
    const learned = (LEARNED_WEIGHTS.method ?? 1) === 1 ? '' : ` \\(learned weight ${LEARNED_WEIGHTS.method}\\)`;
    const fits = (1.15 ** (LEARNED_WEIGHTS.method ?? 1)).toFixed(3).replace(/\.?0+$/, '').replace('.', '\\.');
    expect(lines.find((l) => l.startsWith('  method ') && l.includes('HTTP method'))).toMatch(new RegExp(`x${fits} when it fits.*${learned}$`));
    // the learned weights (weights.ts): the retrieval score's power, and each factor already raised to its weight
    const power = LEARNED_WEIGHTS.retrieval === undefined ? '' : `\\^${LEARNED_WEIGHTS.retrieval}`;
    const method = (1.15 ** (LEARNED_WEIGHTS.method ?? 1)).toFixed(3).replace('.', '\\.');
    expect(lines[at + 1]).toMatch(new RegExp(`^ +bm25 \\d+\\.\\d{3}${power}, covers 100% \\| .*method x${method}.* = \\d+\\.\\d{3}$`));
  });

  it('--explain says how the query was read: phrases, typos, a later step, the head noun', async () => {
    const c = capture();
    await run(['bring back the closed isues and then lock them', '--limit', '1', '--explain']);
    c.restore();
    const first = c.out().split('\n')[0];
    expect(first).toBe('read as: restore the closed issues; later step (weighs less): and then lock them; head noun: issues; '
      + 'method: POST/PUT/PATCH');
  });

  it('without --explain, no reading line', async () => {
    const c = capture();
    await run(['list repository webhooks', '--limit', '1']);
    c.restore();
    expect(c.out()).not.toContain('read as:');
  });

  it('--json --explain carries the explain objects; --keywords widens recall', async () => {
    const c = capture();
    await run(['silence a user', '--limit', '3', '--keywords', 'block', '--json', '--explain']);
    c.restore();
    const parsed = JSON.parse(c.out()) as { results: Array<{ name: string; explain?: { signals: unknown[] } }>; reading?: unknown };
    expect(parsed.results[0]?.name).toBe('users_block');
    expect(parsed.results[0]?.explain?.signals.length).toBeGreaterThan(0);
    // a word GitHub never uses, and no typo of one it does: read as typed (not as `since`)
    expect(parsed.reading).toMatchObject({ words: 'silence a user', head: 'user', methods: ['post', 'put', 'patch'] });
    // no unit corrected "silence"; the method came from it (an unknown verb before its object)
    expect((parsed.reading as { units: Array<{ unit: string; reading: string }> }).units).toEqual(expect.arrayContaining([
      { unit: 'method', reading: 'POST/PUT/PATCH (silence)' },
    ]));
    expect(JSON.stringify(parsed.reading)).not.toContain('typos');
  });

  it('explainLine names an exact match', () => {
    expect(explainLine({ retrieval: 2, coverage: 1, signals: [{ name: 'method', factor: 1.15 }], reranked: 2.3, exact: true }))
      .toBe('bm25 2.000, covers 100% | method x1.150 = 2.300 (exact name: first)');
  });
});
