// The shape an undo verb asks for (words/shape.json): cancelling, revoking, withdrawing or stopping acts on one
// item, so "cancel the invitation" is DELETE /userInvitations/{id}, never the POST that creates one (both fit the
// verb's methods, POST or DELETE, and share every word when the spec has no summaries).
import { describe, expect, it } from 'vitest';
import { SearchIndex } from '../../src/search/index.js';
import { VERB_SHAPES } from '../../src/search/words.js';
import { domainsOf, op } from './helpers.js';

const OPS = [
  op({ name: 'userInvitations-create_instance', domain: 'userinvitations', method: 'post', path: '/v1/userInvitations', summary: '' }),
  op({ name: 'userInvitations-delete_instance', domain: 'userinvitations', method: 'delete', path: '/v1/userInvitations/{id}', summary: '' }),
  op({ name: 'userInvitations-get_collection', domain: 'userinvitations', method: 'get', path: '/v1/userInvitations', summary: '' }),
];

describe('undo verbs ask for an item', () => {
  it('in the word list', () => {
    for (const verb of ['cancel', 'revoke', 'withdraw', 'stop', 'abort']) expect(VERB_SHAPES[verb], verb).toBe('item');
  });

  it('so the creation of the thing is not its cancellation', () => {
    const index = SearchIndex.build(OPS, domainsOf(OPS));
    const without = SearchIndex.build(OPS, domainsOf(OPS), { disabledUnits: ['shape'] });
    expect(without.search('cancel user invitation').results[0]?.name).toBe('userInvitations-create_instance');
    expect(index.search('cancel user invitation').results[0]?.name).toBe('userInvitations-delete_instance');
    expect(index.search('revoke the user invitation', { explain: true }).reading?.units).toContainEqual({ unit: 'shape', reading: 'item (revoke)' });
  });
});
