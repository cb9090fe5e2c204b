// Agent guidance through a real MCP client of each era (2026-07-28 and legacy, in memory) on the committed GitHub
// catalog: the optional `keywords` argument (array, comma or space separated string) widens recall without diluting
// the query, and a weak answer says so and offers domains to browse and a rephrasing hint — within the token budgets.
import { join } from 'node:path';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k_base from 'js-tiktoken/ranks/o200k_base';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LOW_CONFIDENCE_SCORE } from '../../src/search/index.js';
import { ERAS, call, catalogs, connectInMemory, REPO_ROOT, type Connected, type Era } from '../helpers/mcp.js';

const enc = new Tiktoken(o200k_base);

describe.each(ERAS)('%s era', (era: Era) => {
  let c: Connected;

  beforeAll(async () => {
    c = await connectInMemory({ catalogs: catalogs(join(REPO_ROOT, 'registry', 'github')), settings: { baseUrls: {}, readOnly: true, env: {} } }, { era });
  });
  afterAll(async () => {
    await c.close();
  });

  type Hit = { name: string; score: number; domain: string };
  const names = (v: unknown): string[] => ((v as { results: Hit[] }).results ?? []).map((h) => h.name);

  describe('search_tools keywords', () => {
    test('keywords find the operation the query words alone miss, and rank it first', async () => {
      // GitHub never says "silence" or "troll"
      const without = await call(c.client, 'search_tools', { query: 'silence a troll', limit: 8 });
      expect(without.success).toBe(true);
      expect(names(without.value)).not.toContain('users_block');
      const withKw = await call(c.client, 'search_tools', { query: 'silence a troll', keywords: ['block'], limit: 8 });
      expect(names(withKw.value)[0]).toBe('users_block');
    });

    test('keywords never push the query\'s own best match down when it already fits', async () => {
      const plain = await call(c.client, 'search_tools', { query: 'create issue', limit: 5 });
      const kw = await call(c.client, 'search_tools', { query: 'create issue', keywords: ['open', 'ticket', 'bug'], limit: 5 });
      expect(names(plain.value)[0]).toBe('issues_create');
      expect(names(kw.value)[0]).toBe('issues_create');
    });

    test('a comma or space separated string is the same as an array', async () => {
      const arr = await call(c.client, 'search_tools', { query: 'make a new branch', keywords: ['git ref', 'reference'], limit: 8 });
      const comma = await call(c.client, 'search_tools', { query: 'make a new branch', keywords: 'git ref, reference', limit: 8 });
      expect(comma.value).toEqual(arr.value);
      const spaced = await call(c.client, 'search_tools', { query: 'silence a user', keywords: 'block mute', limit: 8 });
      const arr2 = await call(c.client, 'search_tools', { query: 'silence a user', keywords: ['block', 'mute'], limit: 8 });
      expect(spaced.value).toEqual(arr2.value);
      expect(names(arr.value)).toContain('git_create-ref');
    });

    test('keywords of the wrong type are INVALID_ARGUMENTS naming the field', async () => {
      const r = await call(c.client, 'search_tools', { query: 'list issues', keywords: [1, 2] });
      expect(r.success).toBe(false);
      expect(r.error?.code).toBe('INVALID_ARGUMENTS');
      expect(JSON.stringify(r.error?.details)).toContain('/keywords');
    });
  });

  describe('search_tools low-confidence answer', () => {
    test('a weak best match says so, names domains to browse and how to rephrase', async () => {
      const r = await call(c.client, 'search_tools', { query: 'pause the weekly digest email', limit: 8 });
      expect(r.success).toBe(true);
      const v = r.value as { results: Hit[]; confidence?: string; suggestions?: { domains: string[] }; hint: string };
      expect(v.results.length).toBeGreaterThan(0);
      expect(v.results[0]!.score).toBeLessThan(LOW_CONFIDENCE_SCORE);
      expect(v.confidence).toBe('low');
      expect(v.suggestions?.domains.length).toBeGreaterThan(0);
      expect(v.suggestions?.domains).toContain('users');
      expect(v.hint).toMatch(/<action> <resource>/);
      expect(v.hint).toMatch(/keywords/);
      expect(r.instruction).toMatch(/browse/);
      // the whole answer stays within the 8-result budget
      expect(enc.encode(JSON.stringify(r)).length).toBeLessThanOrEqual(900);
      // the suggested domain can be browsed as the hint says
      const browse = await call(c.client, 'search_tools', { domain: v.suggestions!.domains[0] });
      expect(browse.success).toBe(true);
      expect((browse.value as { total: number }).total).toBeGreaterThan(0);
    });

    test('with a domain, the weak answer points at that domain', async () => {
      const r = await call(c.client, 'search_tools', { query: 'pause the weekly digest email', domain: 'users', limit: 8 });
      const v = r.value as { confidence?: string; suggestions?: { domains: string[] } };
      expect(v.confidence).toBe('low');
      expect(v.suggestions?.domains).toEqual(['users']);
    });

    test('a good match has no low-confidence flag and points to describe_tools', async () => {
      const r = await call(c.client, 'search_tools', { query: 'list repository webhooks', limit: 8 });
      const v = r.value as { confidence?: string; results: Hit[]; hint: string };
      expect(v.confidence).toBeUndefined();
      expect(v.results[0]!.name).toBe('repos_list-webhooks');
      expect(v.hint).toMatch(/describe_tools/);
      expect(r.instruction).toMatch(/<action> <resource>/);
      expect(enc.encode(JSON.stringify(r)).length).toBeLessThanOrEqual(900);
    });

    test('tools/list teaches the query style and offers keywords, within 1,000 tokens', async () => {
      const listed = await c.client.listTools();
      const search = listed.tools.find((t) => t.name === 'search_tools')!;
      expect(search.description).toMatch(/<action> <resource>/);
      expect(Object.keys(search.inputSchema.properties ?? {})).toContain('keywords');
      expect(enc.encode(JSON.stringify(listed.tools)).length).toBeLessThanOrEqual(1000);
    });
  });
});
