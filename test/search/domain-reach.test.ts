// The domain filter's reach (src/search/widen.ts): a search with a domain also ranks, a little lower, operations
// of other domains whose path names the domain's resource — the nested resources an API files under the parent.
import { describe, expect, it } from 'vitest';
import { SearchIndex } from '../../src/search/index.js';
import { domainsOf, op } from './helpers.js';

// Trello's shape: the caller's boards and notifications live under /members, filed in the `member` domain
const OPS = [
  op({ name: 'getBoard', domain: 'board', path: '/boards/{idBoard}', summary: 'Get a board' }),
  op({ name: 'getBoardLists', domain: 'board', path: '/boards/{idBoard}/lists', summary: 'Get the lists of a board' }),
  op({ name: 'addBoard', domain: 'board', method: 'post', path: '/boards', summary: 'Create a board' }),
  op({ name: 'getMemberBoards', domain: 'member', path: '/members/{idMember}/boards', summary: 'Get the boards of a member' }),
  op({ name: 'getMemberNotifications', domain: 'member', path: '/members/{idMember}/notifications', summary: 'Get the notifications of a member' }),
  op({ name: 'getMember', domain: 'member', path: '/members/{idMember}', summary: 'Get a member' }),
  op({ name: 'getNotification', domain: 'notification', path: '/notifications/{idNotification}', summary: 'Get a notification' }),
  op({ name: 'markNotificationsRead', domain: 'notification', method: 'post', path: '/notifications/all/read', summary: 'Mark all notifications read' }),
];

const names = (index: SearchIndex, query: string, domain: string): string[] =>
  index.search(query, { domain }).results.map((r) => r.name);

describe('a domain reaches its resource in other domains\' paths', () => {
  const index = SearchIndex.build(OPS, domainsOf(OPS));

  it('ranks an operation filed under the parent resource when its path names the domain', () => {
    // the agent picked `notification` for "list unread notifications"; the operation is in `member`
    const got = names(index, 'list notifications', 'notification');
    expect(got).toContain('getMemberNotifications');
    expect(index.search('list notifications', { domain: 'notification' }).results.find((r) => r.name === 'getMemberNotifications')?.domain).toBe('member');
  });

  it('reaches only paths that name every word of the domain, never other operations of that domain', () => {
    const got = names(index, 'get member', 'board');
    expect(got).not.toContain('getMember');
    expect(got).not.toContain('getMemberNotifications');
    expect(got).toContain('getMemberBoards');
  });

  it('ranks a reached operation below an in-domain one that matches the query as well', () => {
    // "get board": getBoard (in the domain) and getMemberBoards (reached) both match; the domain's own wins
    const got = names(index, 'get board', 'board');
    expect(got.indexOf('getBoard')).toBe(0);
    expect(got.indexOf('getMemberBoards')).toBeGreaterThan(0);
    const { results } = index.search('get boards', { domain: 'board', explain: true });
    const reached = results.find((r) => r.name === 'getMemberBoards');
    expect(reached?.explain?.signals.find((s) => s.name === 'domain-reach')?.factor).toBe(0.8);
    expect(results.find((r) => r.name === 'getBoard')?.explain?.signals.some((s) => s.name === 'domain-reach')).toBe(false);
    // explain's arithmetic holds for a reached hit too: the retrieval score times every factor is the re-ranked
    // score, and scores follow it
    const best = results[0]!.explain!;
    for (const r of results) {
      const e = r.explain!;
      expect(e.signals.reduce((p, s) => p * s.factor, e.retrieval ** (e.retrievalWeight ?? 1))).toBeCloseTo(e.reranked, 9);
      expect(r.score).toBeCloseTo(Math.min(1, (e.reranked / best.reranked) * best.coverage), 3);
    }
  });

  it('a version segment is not the root: /v1beta1/projects/{p}/teams is about teams, not projects', () => {
    const ops = [
      op({ name: 'getProject', domain: 'projects', path: '/v1beta1/projects/{p}', summary: 'Get a project' }),
      op({ name: 'listProjectTeams', domain: 'teams', path: '/v1beta1/projects/{p}/teams', summary: 'List the teams of a project' }),
      op({ name: 'getTeam', domain: 'teams', path: '/v2.1/teams/{t}', summary: 'Get a team' }),
    ];
    const versioned = SearchIndex.build(ops, domainsOf(ops));
    expect(names(versioned, 'list project teams', 'projects')).not.toContain('listProjectTeams');
    expect(names(versioned, 'list project teams', 'teams')).toContain('listProjectTeams');
  });

  it('the caller\'s root is a root too: /my/conversations (in `my`) is about conversations', () => {
    const ops = [
      op({ name: 'offerInConversation', domain: 'conversations', method: 'post', path: '/conversations/{id}/offer', summary: 'Make an offer in the conversation' }),
      op({ name: 'getMyConversations', domain: 'my', path: '/my/conversations', summary: 'Get a list of your conversations' }),
      op({ name: 'getMyOrders', domain: 'my', path: '/my/orders', summary: 'Get your orders' }),
    ];
    const mine = SearchIndex.build(ops, domainsOf(ops));
    expect(names(mine, 'list my conversations', 'conversations')).toContain('getMyConversations');
    expect(names(mine, 'list my conversations', 'conversations')).not.toContain('getMyOrders');
  });

  it('browsing a domain (no query) lists the domain alone', () => {
    const { results, total } = index.search('', { domain: 'board' });
    expect(results.map((r) => r.name).sort()).toEqual(['addBoard', 'getBoard', 'getBoardLists']);
    expect(total).toBe(3);
  });

  it('domainReach 0 makes the domain a strict filter', () => {
    const strict = SearchIndex.build(OPS, domainsOf(OPS), { domainReach: 0 });
    expect(names(strict, 'list notifications', 'notification')).not.toContain('getMemberNotifications');
    expect(strict.search('list notifications', { domain: 'notification' }).results.every((r) => r.domain === 'notification')).toBe(true);
  });

  it('in a merged index, reaches only the same catalog', () => {
    const merged = [
      ...OPS.map((o) => ({ ...o, name: `trello.${o.name}`, domain: `trello.${o.domain}` })),
      op({ name: 'other.getUserNotifications', domain: 'other.users', path: '/users/{id}/notifications', summary: 'Get the notifications of a user' }),
    ];
    const got = names(SearchIndex.build(merged, domainsOf(merged)), 'list notifications', 'trello.notification');
    expect(got).toContain('trello.getMemberNotifications');
    expect(got).not.toContain('other.getUserNotifications');
  });

  it('survives a snapshot: the restored index reaches the same operations', () => {
    const restored = SearchIndex.fromSnapshot(index.toSnapshot(), OPS, domainsOf(OPS));
    for (const [q, d] of [['list notifications', 'notification'], ['get boards', 'board']] as const) {
      expect(names(restored, q, d)).toEqual(names(index, q, d));
    }
  });
});
