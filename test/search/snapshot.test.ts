// SearchIndex.toSnapshot / fromSnapshot: an index restored from bytes ranks every eval query exactly as the built
// one (names, scores, totals, explain), on GitHub (committed registry) and Stripe (imported); damaged or stale
// snapshots are clear errors, never wrong rankings.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, test } from 'vitest';
import { isAppError } from '../../src/errors.js';
import { importSpec } from '../../src/importer/index.js';
import { defaultCatalogDir, loadCatalog } from '../../src/registry/catalog.js';
import { DEFAULT_TUNING, SearchIndex } from '../../src/search/index.js';
import { listsFingerprint, vocabularyFingerprint } from '../../src/search/snapshot.js';
import { WORD_LISTS } from '../../src/search/words.js';
import type { DomainInfo, Operation } from '../../src/types.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
const SETS = [
  join(ROOT, 'test', 'fixtures', 'eval', 'queries-dev.jsonl'),
  ...readdirSync(join(ROOT, 'test', 'fixtures', 'search')).filter((f) => f.endsWith('.jsonl')).map((f) => join(ROOT, 'test', 'fixtures', 'search', f)),
];

function queriesOf(catalog: string): string[] {
  const out: string[] = [];
  for (const file of SETS) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const q = JSON.parse(line) as { catalog: string; query: string };
      if (q.catalog === catalog) out.push(q.query);
    }
  }
  return out;
}

function expectSameRankings(ops: readonly Operation[], domains: readonly DomainInfo[], queries: string[]): void {
  const built = SearchIndex.build(ops, domains);
  const bytes = built.toSnapshot();
  expect(bytes).toBeInstanceOf(Uint8Array);
  // the operations may come in any order: the index numbers them by name
  const loaded = SearchIndex.fromSnapshot(bytes, [...ops].reverse(), domains);
  expect(loaded.size).toBe(built.size);
  expect(queries.length).toBeGreaterThan(20);
  for (const q of [...queries, 'webhoks for my org', 'list', '']) {
    expect(loaded.search(q, { limit: 10, explain: true }), q).toEqual(built.search(q, { limit: 10, explain: true }));
    expect(loaded.suggest(q), q).toEqual(built.suggest(q));
  }
  const domain = domains[0]!.name;
  expect(loaded.search('list', { domain, limit: 50, offset: 3 })).toEqual(built.search('list', { domain, limit: 50, offset: 3 }));
  // a snapshot of a restored index is the same bytes
  expect(Buffer.from(loaded.toSnapshot()).equals(Buffer.from(bytes))).toBe(true);
}

describe('search snapshot', () => {
  it('GitHub: every eval query ranks identically from a snapshot', () => {
    const c = loadCatalog(defaultCatalogDir());
    expectSameRankings(c.operations, c.meta.domains, queriesOf('github'));
  });

  it('Stripe (imported): every eval query ranks identically from a snapshot', async () => {
    const result = await importSpec(join(ROOT, 'test', 'fixtures', 'real-specs', 'stripe.json'), { name: 'stripe' });
    expectSameRankings(result.operations, result.meta.domains, queriesOf('stripe'));
  });

  it('operations other than the snapshot\'s are REGISTRY_STALE; damaged bytes are REGISTRY_INVALID', () => {
    const c = loadCatalog(defaultCatalogDir());
    const ops = c.operations.slice(0, 50);
    const bytes = SearchIndex.build(ops, c.meta.domains).toSnapshot();
    const code = (f: () => unknown): string | undefined => {
      try {
        f();
        return undefined;
      } catch (err) {
        return isAppError(err) ? err.code : String(err);
      }
    };
    expect(code(() => SearchIndex.fromSnapshot(bytes, ops.slice(1), c.meta.domains))).toBe('REGISTRY_STALE');
    const renamed = ops.map((o, k) => (k === 7 ? { ...o, path: `${o.path}/x` } : o));
    expect(code(() => SearchIndex.fromSnapshot(bytes, renamed, c.meta.domains))).toBe('REGISTRY_STALE');
    expect(code(() => SearchIndex.fromSnapshot(bytes.subarray(0, bytes.length - 9), ops, c.meta.domains))).toBe('REGISTRY_INVALID');
    expect(code(() => SearchIndex.fromSnapshot(new Uint8Array(8), ops, c.meta.domains))).toBe('REGISTRY_INVALID');
    const wrongMagic = bytes.slice();
    wrongMagic[0] = 0;
    expect(code(() => SearchIndex.fromSnapshot(wrongMagic, ops, c.meta.domains))).toBe('REGISTRY_INVALID');
    const badHeader = bytes.slice();
    badHeader[14] = 0x7b;
    badHeader[15] = 0x7b;
    expect(code(() => SearchIndex.fromSnapshot(badHeader, ops, c.meta.domains))).toBe('REGISTRY_INVALID');
    // built with other field weights or stemming (same layout): a fresh build would rank differently, so stale
    for (const tuning of [{ boosts: { ...DEFAULT_TUNING.boosts, returns: 1 } }, { stem: 'none' as const }, { descriptionWords: 40 }]) {
      const other = SearchIndex.build(ops, c.meta.domains, tuning).toSnapshot();
      expect(code(() => SearchIndex.fromSnapshot(other, ops, c.meta.domains))).toBe('REGISTRY_STALE');
      expect(code(() => SearchIndex.fromSnapshot(other, undefined, c.meta.domains))).toBe('REGISTRY_STALE');
    }
    // built with other search word lists (another api-catalog version that nobody bumped the layout for): refused
    const text = new TextDecoder().decode(bytes.subarray(12, 12 + new DataView(bytes.buffer, bytes.byteOffset).getUint32(8, true)));
    const at = 12 + text.indexOf('"vocabulary":"') + '"vocabulary":"'.length;
    expect(text).toContain(`"vocabulary":"${vocabularyFingerprint()}"`);
    const otherWords = bytes.slice();
    otherWords[at] = otherWords[at] === 0x30 ? 0x31 : 0x30;
    expect(code(() => SearchIndex.fromSnapshot(otherWords, ops, c.meta.domains))).toBe('REGISTRY_INVALID');
    // query-time knobs are not part of the snapshot's contract: a snapshot written with other ones (an older
    // build's defaults) loads, and ranks with this build's
    const oldWeights = SearchIndex.build(ops, c.meta.domains, { precisionWeight: 0.2, headBoost: 2 }).toSnapshot();
    expect(code(() => SearchIndex.fromSnapshot(oldWeights, ops, c.meta.domains))).toBeUndefined();
    const fresh = SearchIndex.build(ops, c.meta.domains);
    for (const q of ['list issues', 'create a release', 'add a label to an issue']) {
      expect(SearchIndex.fromSnapshot(oldWeights, ops, c.meta.domains).search(q).results).toEqual(fresh.search(q).results);
    }
    // an unaligned copy (a snapshot read into a larger buffer at an odd offset) loads fine
    const padded = new Uint8Array(bytes.length + 3);
    padded.set(bytes, 3);
    const loaded = SearchIndex.fromSnapshot(padded.subarray(3), ops, c.meta.domains);
    expect(loaded.search('list issues').results).toEqual(SearchIndex.build(ops, c.meta.domains).search('list issues').results);
  });
});

test('mining the same words again keeps every snapshot: the fingerprint reads the lists, not how they were built', () => {
  const mined = WORD_LISTS.mined as unknown as { manifest: Record<string, unknown>; mappings: Record<string, Array<[string, number]>> };
  const rebuilt = { ...WORD_LISTS, mined: { ...mined, manifest: { ...mined.manifest, builtOn: '2099-01-01', buildSeconds: 99 } } };
  expect(listsFingerprint(rebuilt)).toBe(vocabularyFingerprint());
  const [word, alternatives] = Object.entries(mined.mappings)[0] as [string, Array<[string, number]>];
  const remapped = { ...WORD_LISTS, mined: { ...mined, mappings: { ...mined.mappings, [word]: alternatives.slice(1) } } };
  expect(listsFingerprint(remapped)).not.toBe(vocabularyFingerprint());
  // a word named "manifest" inside a list is a word like any other
  const withWord = { ...WORD_LISTS, mined: { ...mined, mappings: { ...mined.mappings, manifest: [['inventory', 0.5]] } } };
  expect(listsFingerprint(withWord)).not.toBe(vocabularyFingerprint());
});
