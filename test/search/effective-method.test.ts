// The method an operation acts with (features.ts effectiveMethod): a POST to a path that ends in a verb that never
// POSTs tunnels that verb's method, so `POST /orgs/{id}/secrets/delete` deletes and `POST /customers/search` reads.
// The method signal reads it: "add a secret" is not the POST that deletes secrets.
import { describe, expect, it } from 'vitest';
import { effectiveMethod } from '../../src/search/features.js';
import { SearchIndex } from '../../src/search/index.js';
import { domainsOf, op } from './helpers.js';

describe('effectiveMethod', () => {
  it('reads a one-word action at the end of a POST path', () => {
    expect(effectiveMethod({ method: 'post', path: '/orgs/{orgID}/secrets/delete' })).toBe('delete');
    expect(effectiveMethod({ method: 'post', path: '/customers/search' })).toBe('get');
    expect(effectiveMethod({ method: 'post', path: '/accounts/get' })).toBe('get');
  });

  it('reads a verb and its qualifier (words/method.json tunnelQualifiers)', () => {
    expect(effectiveMethod({ method: 'post', path: '/V1/coupons/deleteByCodes' })).toBe('delete');
    expect(effectiveMethod({ method: 'post', path: '/V1/items/get-by-ids' })).toBe('get');
  });

  it('reads a search with a body: a search segment with no collection after it (words/method.json searchSegments)', () => {
    expect(effectiveMethod({ method: 'post', path: '/User/Search/GlobalName/{page}/' })).toBe('get');
    expect(effectiveMethod({ method: 'post', path: '/api/lookup/by-email' })).toBe('get');
    // a collection after it: the POST adds to it
    expect(effectiveMethod({ method: 'post', path: '/2/tweets/search/stream/rules' })).toBe('post');
    expect(effectiveMethod({ method: 'post', path: '/searches' })).toBe('post');
  });

  it('keeps the HTTP method otherwise', () => {
    // a verb and its object unlinks that object: a change of the resource before it, not its deletion
    expect(effectiveMethod({ method: 'post', path: '/projects/{project_gid}/removeMembers' })).toBe('post');
    // verbs that may POST (cancel, update, create) and plain resources
    expect(effectiveMethod({ method: 'post', path: '/subscriptions/{id}/cancel' })).toBe('post');
    expect(effectiveMethod({ method: 'post', path: '/tasks/{taskID}/runs' })).toBe('post');
    expect(effectiveMethod({ method: 'post', path: '/{id}' })).toBe('post');
    // only POST tunnels: a PUT or GET says what it does
    expect(effectiveMethod({ method: 'put', path: '/records/delete' })).toBe('put');
    expect(effectiveMethod({ method: 'get', path: '/records/delete' })).toBe('get');
  });
});

const OPS = [
  op({ name: 'PostOrgsIDSecretsDelete', domain: 'secrets', method: 'post', path: '/orgs/{orgID}/secrets/delete', summary: 'Delete secrets from an organization' }),
  op({ name: 'PatchOrgsIDSecrets', domain: 'secrets', method: 'patch', path: '/orgs/{orgID}/secrets', summary: 'Update secrets in an organization' }),
  op({ name: 'GetOrgsIDSecrets', domain: 'secrets', method: 'get', path: '/orgs/{orgID}/secrets', summary: 'List all secret keys for an organization' }),
];

describe('the method signal reads the method an operation acts with', () => {
  const index = SearchIndex.build(OPS, domainsOf(OPS));

  const methodFactor = (query: string, name: string) =>
    index.search(query, { explain: true }).results.find((h) => h.name === name)?.explain?.signals.find((s) => s.name === 'method')?.factor;

  it('so adding a secret does not fit the POST that deletes secrets', () => {
    // the tunnelled DELETE does not fit "add" (POST/PUT), as the PATCH does not; the POST it is would fit
    const misfit = methodFactor('add secret', 'PatchOrgsIDSecrets');
    expect(misfit).toBeLessThan(1);
    expect(methodFactor('add secret', 'PostOrgsIDSecretsDelete')).toBe(misfit);
  });

  it('and deleting them fits it', () => {
    expect(methodFactor('delete secrets', 'PostOrgsIDSecretsDelete')).toBeGreaterThan(1);
    expect(index.search('delete secrets').results[0]?.name).toBe('PostOrgsIDSecretsDelete');
  });
});
