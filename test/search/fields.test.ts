// The field names nested in object parameters (src/search/fields.ts): JSON:API keeps what a PATCH changes under
// `data.attributes`, so the index reads those names beside the top-level parameters, and a search fixture keeps
// their paths so that an index built from it is the one built from the catalog.
import { describe, expect, it } from 'vitest';
import { MAX_NESTED_FIELDS, nestedFieldNames, nestedFields, schemaFromFields } from '../../src/search/fields.js';
import { SearchIndex } from '../../src/search/index.js';
import { domainsOf, op } from './helpers.js';

const PATCH_BUILD = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    data: {
      type: 'object',
      properties: {
        attributes: { type: 'object', properties: { expired: { type: 'boolean' }, usesNonExemptEncryption: { type: 'boolean' } } },
        id: { type: 'string' },
        relationships: { type: 'object', properties: { app: { type: 'object', properties: { data: { type: 'object', properties: { id: {} } } } } } },
        type: { type: 'string' },
      },
    },
  },
};

describe('nested fields', () => {
  it('are the paths under object parameters, depth first, three levels down at most', () => {
    expect(nestedFields(PATCH_BUILD)).toEqual([
      'data.attributes', 'data.attributes.expired', 'data.attributes.usesNonExemptEncryption', 'data.id',
      'data.relationships', 'data.relationships.app', 'data.relationships.app.data', 'data.type',
    ]);
    expect(nestedFieldNames(PATCH_BUILD)).toEqual(['attributes', 'expired', 'usesNonExemptEncryption', 'id', 'relationships', 'app', 'data', 'type']);
    expect(nestedFields({ type: 'object', properties: { q: { type: 'string' } } })).toEqual([]);
  });

  it('are bounded, and rebuilt from a fixture they read the same', () => {
    const wide = { properties: { body: { properties: Object.fromEntries(Array.from({ length: 100 }, (_, k) => [`f${k}`, {}])) } } };
    expect(nestedFields(wide)).toHaveLength(MAX_NESTED_FIELDS);
    const paths = nestedFields(PATCH_BUILD);
    expect(nestedFields({ properties: schemaFromFields(['id', 'data'], paths) })).toEqual(paths);
  });

  it('let a request name a field only the body has', () => {
    const ops = [
      op({ name: 'builds-get_collection', domain: 'builds', method: 'get', path: '/v1/builds', summary: '' }, ['filter[expired]', 'filter[version]', 'sort', 'limit']),
      { ...op({ name: 'builds-update_instance', domain: 'builds', method: 'patch', path: '/v1/builds/{id}', summary: '' }), inputSchema: PATCH_BUILD as never },
    ];
    const index = SearchIndex.build(ops, domainsOf(ops));
    expect(index.search('expire build').results[0]?.name).toBe('builds-update_instance');
    // without the nested names, the list's filter parameters are the only ones that say expired
    const flat = ops.map((o) => ({ ...o, inputSchema: { type: 'object' as const, properties: Object.fromEntries(Object.keys(o.inputSchema.properties).map((k) => [k, {}])) } }));
    expect(SearchIndex.build(flat, domainsOf(flat)).search('expire build').results[0]?.name).toBe('builds-get_collection');
  });
});
