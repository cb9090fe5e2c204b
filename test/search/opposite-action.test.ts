// The opposites unit and the opposite-action signal (src/search/units.ts, signals.ts): an operation whose action
// undoes or opposes the request's verb (unsuspend for suspend, reject for accept) ranks below the one that does what
// was asked, even where its summary says the asked verb too ("Unsuspend a currently suspended account").
import { describe, expect, it } from 'vitest';
import { trailingAction } from '../../src/search/features.js';
import { SearchIndex } from '../../src/search/index.js';
import { OPPOSITE_FACTOR } from '../../src/search/signals.js';
import { oppositeActions } from '../../src/search/opposites.js';
import { domainsOf, op } from './helpers.js';

const OPS = [
  op({ name: 'unsuspendAccount', domain: 'admin', method: 'post', path: '/admin/accounts/{id}/unsuspend', summary: 'Unsuspend a currently suspended account, restoring a suspended account' }),
  op({ name: 'accountAction', domain: 'admin', method: 'post', path: '/admin/accounts/{id}/action', summary: 'Perform an action against an account: suspend, silence or disable it' }),
  // the spec's copy-paste: both say "Accept Follow"; the path says which is which
  op({ name: 'rejectFollow', domain: 'follows', method: 'post', path: '/follow_requests/{id}/reject', summary: 'Accept Follow request' }),
  op({ name: 'authorizeFollow', domain: 'follows', method: 'post', path: '/follow_requests/{id}/authorize', summary: 'Accept Follow request' }),
  op({ name: 'listAccounts', domain: 'admin', method: 'get', path: '/admin/accounts', summary: 'View accounts' }),
];

const factor = (index: SearchIndex, q: string, name: string): number | undefined =>
  index.search(q, { explain: true }).results.find((r) => r.name === name)?.explain?.signals.find((s) => s.name === 'opposite-action')?.factor;

describe('opposite actions', () => {
  it('are the verb with an undo prefix either way, and the words of its opposite family', () => {
    expect(oppositeActions('suspend')).toEqual(expect.arrayContaining(['unsuspend', 'enable']));
    expect(oppositeActions('unpin')).toContain('pin');
    expect(oppositeActions('connect')).toContain('disconnect');
    expect(oppositeActions('accept')).toEqual(expect.arrayContaining(['reject', 'decline']));
    expect(oppositeActions('list')).not.toContain('list');
  });

  it("an operation's action word is its path's trailing action", () => {
    expect(trailingAction('/admin/accounts/{id}/unsuspend')).toBe('unsuspend');
    expect(trailingAction('/pipelines/{id}/retry')).toBe('retry');
    expect(trailingAction('/repos/{owner}/{repo}/issues')).toBeUndefined();
  });
});

describe('the opposite-action signal', () => {
  const index = SearchIndex.build(OPS, domainsOf(OPS));
  const without = SearchIndex.build(OPS, domainsOf(OPS), { disabledSignals: ['opposite-action'] });

  it('lowers the operation that undoes what the request asks for', () => {
    expect(factor(index, 'suspend account', 'unsuspendAccount')).toBe(OPPOSITE_FACTOR);
    expect(factor(index, 'suspend account', 'accountAction')).toBe(1);
    // without it, the undo's words win; with it, the operation that can suspend comes first
    expect(without.search('suspend account').results[0]?.name).toBe('unsuspendAccount');
    expect(index.search('suspend account').results[0]?.name).toBe('accountAction');
    expect(index.search('unsuspend account').results[0]?.name).toBe('unsuspendAccount');
  });

  it('reads the path where summaries are copies of each other', () => {
    expect(factor(index, 'accept follow request', 'rejectFollow')).toBe(OPPOSITE_FACTOR);
    expect(index.search('accept follow request').results[0]?.name).toBe('authorizeFollow');
    expect(index.search('reject follow request').results[0]?.name).toBe('rejectFollow');
  });

  it('reads the summary when the path ends in a part of one item, not an action', () => {
    const parts = [
      op({ name: 'get_instances_id_file', domain: 'instances', path: '/instances/{id}/file', summary: 'Download DICOM' }),
      op({ name: 'post_instances', domain: 'instances', method: 'post', path: '/instances', summary: 'Upload DICOM instances' }),
    ];
    const files = SearchIndex.build(parts, domainsOf(parts));
    // `file` after the instance's id is no verb: the summary's "Download" is what it does, the opposite of upload
    expect(factor(files, 'upload dicom file', 'get_instances_id_file')).toBe(OPPOSITE_FACTOR);
    expect(factor(files, 'download dicom file', 'get_instances_id_file')).toBe(1);
  });

  it('has no opinion on a question or a request without a verb, reads the same from a snapshot, and explains itself', () => {
    expect(index.search('which accounts are suspended?', { explain: true }).reading?.units.some((u) => u.unit === 'opposites')).toBe(false);
    const restored = SearchIndex.fromSnapshot(index.toSnapshot(), OPS, domainsOf(OPS));
    for (const q of ['suspend account', 'accept follow request']) {
      expect(restored.search(q, { explain: true }).results).toEqual(index.search(q, { explain: true }).results);
    }
    const reading = index.search('suspend account', { explain: true }).reading;
    expect(reading?.units).toEqual(expect.arrayContaining([expect.objectContaining({ unit: 'opposites' })]));
  });
});
