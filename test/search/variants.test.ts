// The admin-variant and bulk-variant signals (src/search/signals.ts): an operation of the administrator's side, or
// one for many at once, ranks below the plain one it varies unless the request asks for it. Their words are data
// (words/scopes.json admin*, words/breadth.json many, bulkOperation). Built through the real index, on a snapshot too.
import { describe, expect, it } from 'vitest';
import { isAdminSide } from '../../src/search/features.js';
import { SearchIndex } from '../../src/search/index.js';
import { VARIANT_FACTOR } from '../../src/search/signals.js';
import { domainsOf, op } from './helpers.js';

const OPS = [
  op({ name: 'adminCreatePublicKey', domain: 'admin', method: 'post', path: '/admin/users/{username}/keys', summary: 'Add a public key on behalf of a user' }),
  op({ name: 'userCurrentPostKey', domain: 'user', method: 'post', path: '/user/keys', summary: 'Create a public key' }),
  op({ name: 'addMappers', domain: 'mappers', method: 'post', path: '/clients/{id}/protocol-mappers/add-models', summary: 'Create multiple mappers' }),
  op({ name: 'createMapper', domain: 'mappers', method: 'post', path: '/clients/{id}/protocol-mappers/models', summary: 'Create a mapper' }),
  op({ name: 'listClients', domain: 'clients', method: 'get', path: '/clients', summary: 'List clients' }),
];

const factor = (index: SearchIndex, q: string, name: string, signal: string): number | undefined =>
  index.search(q, { explain: true }).results.find((r) => r.name === name)?.explain?.signals.find((s) => s.name === signal)?.factor;

describe('the administrator\'s side', () => {
  it('is an admin root first in the path (after a version, Slack-style too) or a summary on behalf of someone', () => {
    expect(isAdminSide({ path: '/admin/users/{u}/keys', summary: '' })).toBe(true);
    expect(isAdminSide({ path: '/v2/admin/users', summary: '' })).toBe(true);
    expect(isAdminSide({ path: '/admin.users.list', summary: '' })).toBe(true);
    expect(isAdminSide({ path: '/users/{u}/keys', summary: 'Add a public key on behalf of a user' })).toBe(true);
    // deeper down, or a word that only starts like it, is no admin root
    expect(isAdminSide({ path: '/repos/{o}/{r}/admins', summary: 'List repository admins' })).toBe(false);
    expect(isAdminSide({ path: '/administrativeunits', summary: '' })).toBe(false);
  });
});

describe('the variant signals', () => {
  const index = SearchIndex.build(OPS, domainsOf(OPS));

  it('lower the admin variant unless the request says admin', () => {
    const q = 'create a public ssh key';
    expect(factor(index, q, 'adminCreatePublicKey', 'admin-variant')).toBe(VARIANT_FACTOR);
    expect(factor(index, q, 'userCurrentPostKey', 'admin-variant')).toBe(1);
    // the plain operation gains 1/0.9 on the admin's: left out, it stays further behind
    const without = SearchIndex.build(OPS, domainsOf(OPS), { disabledSignals: ['admin-variant'] });
    const ratio = (ix: SearchIndex): number => {
      const r = ix.search(q, { explain: true }).results;
      const score = (n: string): number => r.find((h) => h.name === n)?.explain?.reranked as number;
      return score('userCurrentPostKey') / score('adminCreatePublicKey');
    };
    expect(ratio(index) / ratio(without)).toBeCloseTo(1 / VARIANT_FACTOR, 9);
    // said: no opinion
    expect(factor(index, 'admin add public key for a user', 'adminCreatePublicKey', 'admin-variant')).toBeUndefined();
    expect(index.search('admin add public key for a user').results[0]?.name).toBe('adminCreatePublicKey');
  });

  it('lower the bulk variant unless the request asks for several', () => {
    expect(factor(index, 'create protocol mapper', 'addMappers', 'bulk-variant')).toBe(VARIANT_FACTOR);
    expect(factor(index, 'create protocol mapper', 'createMapper', 'bulk-variant')).toBe(1);
    expect(index.search('create protocol mapper').results[0]?.name).toBe('createMapper');
    expect(factor(index, 'create several protocol mappers', 'addMappers', 'bulk-variant')).toBeUndefined();
    expect(index.search('create multiple protocol mappers').results[0]?.name).toBe('addMappers');
  });

  it('many at once acts on the collection: "update several records" is the collection PATCH, not one item\'s', () => {
    const ops = [
      op({ name: 'patchRecord', domain: 'records', method: 'patch', path: '/entities/{entity}/records/{code}', summary: 'Update/create a record of a given entity' }),
      op({ name: 'patchRecords', domain: 'records', method: 'patch', path: '/entities/{entity}/records', summary: 'Update/create several entity records' }),
    ];
    const ix = SearchIndex.build(ops, domainsOf(ops));
    const shape = (q: string) => ix.search(q, { explain: true }).reading?.units.find((u) => u.unit === 'shape')?.reading;
    expect(shape('update several entity records')).toBe('collection (several)');
    expect(shape('update entity record')).toBe('item (update)');
    expect(ix.search('update several entity records').results[0]?.name).toBe('patchRecords');
    expect(ix.search('update multiple records of an entity').results[0]?.name).toBe('patchRecords');
    // "how many" counts and "too many" describes: neither asks for many at once
    const breadth = (q: string) => index.search(q, { explain: true }).reading?.units.filter((u) => u.unit === 'breadth');
    expect(breadth('how many clients are there')).toEqual([]);
    expect(breadth('the client failed too many logins, unlock it')).toEqual([]);
    expect(breadth('so many mappers, delete several')).toEqual([{ unit: 'breadth', reading: 'many at once' }]);
  });

  it('read the same from a snapshot, and explain says what they read', () => {
    const restored = SearchIndex.fromSnapshot(index.toSnapshot(), OPS, domainsOf(OPS));
    for (const q of ['add ssh public key', 'create protocol mapper', 'admin add public key for a user']) {
      expect(restored.search(q, { explain: true }).results).toEqual(index.search(q, { explain: true }).results);
    }
    const reading = index.search('create multiple mappers as admin', { explain: true }).reading;
    expect(reading?.units).toEqual(expect.arrayContaining([{ unit: 'breadth', reading: 'many at once' }, { unit: 'scopes', reading: "the administrator's side" }]));
    const signals = index.search('list clients', { explain: true }).signals?.map((s) => s.name);
    expect(signals).toEqual(expect.arrayContaining(['admin-variant', 'bulk-variant']));
  });
});
