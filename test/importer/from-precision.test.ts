// `from` (Operation.paramSources) on two small specs shaped like the APIs an outside audit read by hand
// (test/fixtures/from): a CRM bridge like Data2CRM (entity lists under `/list`, aggregations, line items, an app list
// with its owner's integer `user_id`) and a social API like SoundCloud, Vimeo and Stripe (a user search, follow
// lists, compound parameter names), with an excerpt of Vimeo's follows and a lookup by ids shaped like Spotify's.
// src/importer/entities.ts, producers.ts, sources.ts.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { pathNames } from '../../src/importer/entities.js';
import { importSpec } from '../../src/importer/index.js';
import type { Operation } from '../../src/types.js';

const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/from/${name}`, import.meta.url));

const load = async (name: string): Promise<(opId: string, arg: string) => string[] | undefined> => {
  const ops = new Map<string, Operation>((await importSpec(fixture(name))).operations.map((o) => [o.operationId, o]));
  return (opId, arg) => ops.get(opId)?.paramSources?.[arg];
};

describe('from on a CRM bridge (precision)', () => {
  let from: Awaited<ReturnType<typeof load>>;
  beforeAll(async () => {
    from = await load('crm.json');
  });

  test("an aggregation's answer is about the collection: its id is no account's (`/account/aggregate`, `/account/count`)", () => {
    expect(from('getAccount', 'account_id')).toEqual(['listAccounts']);
    expect(from('deleteAccount', 'account_id')).toEqual(['listAccounts']);
    // where the own list is no `/list` (which would outrank it anyway), the aggregation is still not offered
    expect(from('getLead', 'lead_id')).toEqual(['findLeads']);
    expect(pathNames('/app/entity/lead/aggregate')).toEqual([]);
    expect(pathNames('/app/entity/lead/find')).toEqual([['app'], ['entity'], ['lead'], ['find']]);
  });

  test("a child resource's list is not its parent's (`InvoiceItemEntity` where the API has `{invoiceItem_id}`)", () => {
    expect(from('getInvoice', 'invoice_id')).toEqual(['listInvoices']);
    // and the child's own ids come from its list, though its last word (`item`) says only how it is shaped
    expect(from('getInvoiceItem', 'invoiceItem_id')).toEqual(['listInvoiceItems']);
  });

  test("a field of the parameter's name but of another type than the resource's ids is another thing's", () => {
    // AppEntityList.user_id is an integer; the API's users have string ids
    expect(from('getUser', 'user_id')).toEqual(['listUsers']);
  });

  test("the resource's own list (`/contact/list`) ranks above a field of the same name in another resource's list", () => {
    expect(from('getContact', 'contact_id')?.[0]).toBe('listContacts');
    expect(from('getContact', 'contact_id')).toContain('listDeals');
  });

  test('a compound whose collection is another than its narrower reading\'s own gets no from from that one', () => {
    // `/user/{internal_user_id}`: users live at `/app/entity/user`; the internal users' list gives no id
    expect(from('getInternalUser', 'internal_user_id')).toBeUndefined();
  });
});

describe('from on a social API (recall and order)', () => {
  let from: Awaited<ReturnType<typeof load>>;
  beforeAll(async () => {
    from = await load('social.json');
  });

  test('a compound name nothing gives is read by the collection before it (`/subscriptions/{subscription_exposed_id}`)', () => {
    expect(from('cancelSubscription', 'subscription_exposed_id')).toEqual(['listSubscriptions']);
  });

  test('a compound name nothing gives is read by its head noun (`blocked_user_id` -> user)', () => {
    expect(from('unblock', 'blocked_user_id')?.[0]).toBe('listBlocks');
    expect(from('unblock', 'blocked_user_id')).toContain('searchUsers');
  });

  test("adding to a list of another resource's items takes a value not in it yet: the resource's own collection first", () => {
    expect(from('follow', 'user_id')?.[0]).toBe('searchUsers');
    // removing one takes it from the list itself
    expect(from('unfollow', 'user_id')?.[0]).toBe('listFollowings');
  });

  test('a compound that leaves out a resource of the API is that resource\'s thing (`bank_account_id` where the API has banks)', () => {
    expect(from('syncBankAccount', 'bank_account_id')).toBeUndefined();
    expect(from('getAccount', 'account_id')).toEqual(['listAccounts']);
  });

  test("a compound read from the path is not narrowed (`/verified_senders?id=` is no sender's id)", () => {
    expect(from('listVerifiedSenders', 'id')).toBeUndefined();
  });
});

describe('from on Vimeo (an excerpt of its users and follows)', () => {
  let from: Awaited<ReturnType<typeof load>>;
  beforeAll(async () => {
    from = await load('vimeo-follows.json');
  });

  test("a parameter under a collection is given by that collection's list, though the list needs another of its kind", () => {
    // `/users/{user_id}/following` needs a user: the one whose follows are checked, which the caller already has
    expect(from('check_if_user_is_following', 'follow_user_id')?.[0]).toBe('get_user_following');
    expect(from('unfollow_user', 'follow_user_id')?.[0]).toBe('get_user_following');
    // the other user's own collection stays offered
    expect(from('check_if_user_is_following', 'follow_user_id')).toContain('search_users');
    // the `/me` variants are unchanged: their own list
    expect(from('check_if_user_is_following_alt1', 'follow_user_id')).toEqual(['get_user_following_alt1']);
  });

  test('adding to the list takes a value not in it yet: the followed list is not offered for a follow', () => {
    expect(from('follow_user', 'follow_user_id')?.[0]).toBe('search_users');
    expect(from('follow_user', 'follow_user_id')).not.toContain('get_user_following');
  });

  test('a list still never gives the value its own path needs (`user_id` is not taken from a user\'s follows)', () => {
    expect(from('get_user_following', 'user_id')).not.toContain('get_user_following');
    expect(from('check_if_user_is_following', 'user_id')).not.toContain('get_user_following');
  });
});

describe('from on a lookup by ids (precision)', () => {
  test('the collection before `/artists/{id}` is no way to an id when it takes the ids as its input (`GET /artists?ids=`)', async () => {
    const from = await load('lookup-by-ids.json');
    expect(from('getArtist', 'id')).toEqual(['search']);
  });
});
