// The returns-head signal (src/search/signals.ts `returns-head`): a request that asks for a datum ("the birthday of
// the director ...") whose head noun names no resource of the catalog but is a field of some operations' responses
// raises those operations. Built through the real index, on a snapshot too.
import { describe, expect, it } from 'vitest';
import { SearchIndex } from '../../src/search/index.js';
import { RETURNS_HEAD_FACTOR } from '../../src/search/signals.js';
import { LEARNED_WEIGHTS } from '../../src/search/weights.js';
import { domainsOf, op } from './helpers.js';

const fields = (...f: string[]) => ({ status: '200', description: 'OK', fields: f });
const OPS = [
  op({ name: 'getPerson', domain: 'people', path: '/person/{person_id}', summary: 'Get the person details', response: fields('id', 'name', 'birthday', 'place_of_birth') }),
  op({ name: 'searchPeople', domain: 'people', path: '/search/person', summary: 'Search for people', response: fields('page', 'results') }),
  op({ name: 'getMovieCredits', domain: 'movies', path: '/movie/{movie_id}/credits', summary: 'Get the cast and crew of a movie', response: fields('id', 'cast', 'crew') }),
  op({ name: 'getMovie', domain: 'movies', path: '/movie/{movie_id}', summary: 'Get the movie details', response: fields('id', 'title', 'release_date') }),
];

const factor = (index: SearchIndex, q: string, name: string): number | undefined =>
  index.search(q, { explain: true }).results.find((r) => r.name === name)?.explain?.signals.find((s) => s.name === 'returns-head')?.factor;

describe('the returns-head signal', () => {
  const index = SearchIndex.build(OPS, domainsOf(OPS), { signalWeights: {} });

  it('raises the operations whose response has the datum the request asks for', () => {
    expect(factor(index, 'when is the birthday of the director of a movie', 'getPerson')).toBe(RETURNS_HEAD_FACTOR);
    expect(factor(index, 'when is the birthday of the director of a movie', 'getMovie')).toBe(1);
  });

  it('says nothing when the head noun is a resource of the catalog', () => {
    // `movie` is the resource of /movie/{movie_id}: the request is about it, not a datum of something else
    expect(factor(index, 'show the movie with its release date', 'getMovie')).toBeUndefined();
  });

  it('reads the same from a snapshot', () => {
    const built = SearchIndex.build(OPS, domainsOf(OPS));
    const restored = SearchIndex.fromSnapshot(built.toSnapshot(), OPS, domainsOf(OPS));
    const q = 'when is the birthday of the director of a movie';
    expect(restored.search(q, { explain: true }).results).toEqual(built.search(q, { explain: true }).results);
    expect(factor(restored, q, 'getPerson')).toBe(RETURNS_HEAD_FACTOR ** (LEARNED_WEIGHTS['returns-head'] ?? 1));
  });
});
