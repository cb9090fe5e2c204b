// The exact-title signal (src/search/signals.ts `exact-title`, table in src/search/titles.ts): a query that says
// an operation's summary word for word ("create repository" for "Create a repository") raises that operation over
// a longer one that also says the words. Built through the real index, on a snapshot too.
import { describe, expect, it } from 'vitest';
import { SearchIndex } from '../../src/search/index.js';
import { Lexicon } from '../../src/search/lexicon.js';
import { buildTitleTable, summaryKey, titleDocs, titleKey, validTitleTable } from '../../src/search/titles.js';
import { domainsOf, op } from './helpers.js';

const OPS = [
  op({ name: 'generateRepo', domain: 'repository', method: 'post', path: '/repos/{template_owner}/{template_repo}/generate', summary: 'Create a repository using a template', description: 'Create a new repository from a template repository: the new repository gets the template repository files.' }),
  op({ name: 'createCurrentUserRepo', domain: 'repository', method: 'post', path: '/user/repos', summary: 'Create a repository' }),
  op({ name: 'getProgram', domain: 'livetv', method: 'get', path: '/programs/{programId}', summary: 'Gets a live tv program' }),
  op({ name: 'getPrograms', domain: 'livetv', method: 'get', path: '/programs', summary: 'Gets available live tv epgs' }),
];

const lexicon = new Lexicon('porter');
const factor = (index: SearchIndex, q: string, name: string): number | undefined =>
  index.search(q, { explain: true }).results.find((r) => r.name === name)?.explain?.signals.find((s) => s.name === 'exact-title')?.factor;

describe('title keys', () => {
  it('read articles, word order and a verb\'s -s aside', () => {
    const key = summaryKey('Create a repository', lexicon);
    expect(titleKey(['create', 'repository'], lexicon)).toBe(key);
    expect(summaryKey('Creates the repository', lexicon)).toBe(key);
    expect(titleKey(['repository', 'create'], lexicon)).toBe(key);
    // the words as the index reads them: an abbreviation is its word
    expect(titleKey(['create', 'repo'], lexicon)).toBe(key);
    // stop words are no words: "using" and "a" drop as the index drops them
    expect(titleKey(['create', 'repository', 'template'], lexicon)).toBe(summaryKey('Create a repository using a template', lexicon));
  });

  it('keep a plural after the first word: a list is not one item', () => {
    expect(titleKey(['get', 'live', 'tv', 'programs'], lexicon)).not.toBe(summaryKey('Gets a live tv program', lexicon));
    expect(titleKey(['get', 'live', 'tv', 'program'], lexicon)).toBe(summaryKey('Gets a live tv program', lexicon));
    expect(titleKey(['create', 'repository'], lexicon)).not.toBe(summaryKey('Create a repository using a template', lexicon));
  });

  it('are empty for text of stop words only, which matches nothing', () => {
    expect(summaryKey('', lexicon)).toBe('');
    const table = buildTitleTable(['', 'Create a repository'], lexicon);
    expect(table.titleKeyDoc).toEqual(Uint32Array.of(1));
    expect(titleDocs(table, '', () => '')).toEqual([]);
  });

  it('look up by hash and confirm each hit, so a shared hash never matches another key', () => {
    const summaries = ['Create a repository', 'Delete a repository', 'Create a repository'];
    const table = buildTitleTable(summaries, lexicon);
    const keyOf = (i: number): string => summaryKey(summaries[i] as string, lexicon);
    expect(titleDocs(table, titleKey(['create', 'repository'], lexicon), keyOf)).toEqual([0, 2]);
    // the same hash, another key: the confirmation drops it
    expect(titleDocs(table, titleKey(['create', 'repository'], lexicon), () => 'something else')).toEqual([]);
    expect(validTitleTable(table, 3)).toBe(true);
    expect(validTitleTable(table, 2)).toBe(false); // names a document past the count
    expect(validTitleTable({ titleKeyHash: table.titleKeyHash.slice().reverse(), titleKeyDoc: table.titleKeyDoc }, 3)).toBe(table.titleKeyHash[0] === table.titleKeyHash[2]);
  });
});

describe('the exact-title signal', () => {
  const index = SearchIndex.build(OPS, domainsOf(OPS));

  it('puts the operation the query names by its summary first', () => {
    expect(index.search('create repository').results[0]?.name).toBe('createCurrentUserRepo');
    expect(factor(index, 'create repository', 'createCurrentUserRepo')).toBe(1.5);
    expect(factor(index, 'create repository', 'generateRepo')).toBe(1);
    // left out, the longer operation that says more of the words in more fields wins: the signal is what decides
    const without = SearchIndex.build(OPS, domainsOf(OPS), { disabledSignals: ['exact-title'] });
    expect(without.search('create repository').results[0]?.name).toBe('generateRepo');
  });

  it('says nothing when no summary is the query', () => {
    expect(factor(index, 'get live tv programs', 'getProgram')).toBeUndefined();
    expect(factor(index, 'make a repository from a template', 'generateRepo')).toBeUndefined();
  });

  it('reads the same from a snapshot', () => {
    const restored = SearchIndex.fromSnapshot(index.toSnapshot(), OPS, domainsOf(OPS));
    for (const q of ['create repository', 'get live tv program', 'creat a repositry']) {
      expect(restored.search(q, { explain: true }).results).toEqual(index.search(q, { explain: true }).results);
    }
    expect(factor(restored, 'create repository', 'createCurrentUserRepo')).toBe(1.5);
  });

  it('reads a misspelt query as the spelt one', () => {
    expect(factor(index, 'creat a repositry', 'createCurrentUserRepo')).toBe(1.5);
  });
});
