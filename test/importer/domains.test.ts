// A domain that holds most of a catalog is grouped by path (src/importer/domains.ts): Xero tags all 224 operations
// "Accounting", Gmail all 79 "users", and a map of one domain tells an agent nothing.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { SPLIT_DOMINANT_SHARE, SPLIT_MIN_OPERATIONS, splitDominantDomain } from '../../src/importer/domains.js';
import { importSpec } from '../../src/importer/index.js';
import type { Operation } from '../../src/types.js';
import { tempDir } from '../helpers/temp.js';

function op(path: string, domain: string, method = 'get'): Operation {
  return {
    name: `${method} ${path}`, operationId: '', domain, summary: '', description: '', method: method as Operation['method'], path, tags: [],
    deprecated: false, destructive: false, readOnly: true, servers: [], security: [],
    inputSchema: { type: 'object', properties: {} }, bindings: [], errors: [], examples: [], executable: true,
  };
}

/** `n` operations under `prefix`, spread over `resources`, all in `domain`. */
function catalog(prefix: string, resources: readonly string[], n: number, domain = 'api'): Operation[] {
  return Array.from({ length: n }, (_, k) => op(`${prefix}/${resources[k % resources.length] as string}/{id}/part${k}`, domain));
}

describe('splitDominantDomain', () => {
  test('groups the operations of a one-domain catalog by the first segment after their shared prefix', () => {
    const ops = catalog('/gmail/v1/users/{userId}', ['messages', 'drafts', 'labels', 'threads'], 48, 'users');
    expect(splitDominantDomain(ops)).toEqual({ domain: 'users', operations: 48, parts: 4, by: 'path' });
    expect(new Set(ops.map((o) => o.domain))).toEqual(new Set(['messages', 'drafts', 'labels', 'threads']));
    expect(ops.find((o) => o.path.startsWith('/gmail/v1/users/{userId}/drafts/'))?.domain).toBe('drafts');
  });

  test('skips versions and parameters after the prefix, and keeps what a curator chose', () => {
    const ops = [...catalog('', ['Invoices', 'Contacts', 'Accounts'], 45, 'accounting'), op('/v2/Payments', 'accounting'), op('/Reports/{id}', 'curated')];
    const fixed = ops[3] as Operation;
    fixed.domain = 'accounting';
    const curated = new Set([fixed]);
    splitDominantDomain(ops, (o) => curated.has(o));
    expect(ops.find((o) => o.path === '/v2/Payments')?.domain).toBe('payments');
    expect(ops[0]?.domain).toBe('invoices');
    expect(fixed.domain).toBe('accounting');
  });

  test('leaves a catalog alone when no domain dominates, when it is small, or when its paths say no more', () => {
    const balanced = [...catalog('', ['a', 'b', 'c'], 30, 'one'), ...catalog('', ['d', 'e', 'f'], 30, 'two')];
    expect(splitDominantDomain(balanced)).toBeUndefined();
    expect(balanced.every((o) => o.domain === 'one' || o.domain === 'two')).toBe(true);
    const small = catalog('', ['a', 'b', 'c'], SPLIT_MIN_OPERATIONS - 1);
    expect(splitDominantDomain(small)).toBeUndefined();
    // AWS's RPC specs put every operation on one path (`/#X-Amz-Target=Lightsail_20161128.AllocateStaticIp`)
    const rpc = Array.from({ length: 60 }, (_, k) => op(`/#X-Amz-Target=Lightsail_20161128.Op${k}`, 'x-amz-target', 'post'));
    expect(splitDominantDomain(rpc)).toBeUndefined();
    expect(SPLIT_DOMINANT_SHARE).toBeGreaterThan(0.5);
  });
});

const scratch = tempDir('domains-');

describe('import', () => {
  test('a spec that tags every operation alike gets a map by path, and says so', async () => {
    const paths: Record<string, unknown> = {};
    for (const r of ['invoices', 'contacts', 'accounts', 'payments', 'items']) {
      for (let k = 0; k < 9; k++) {
        paths[`/api.xro/2.0/${r}/{id}/v${k}`] = { get: { tags: ['Accounting'], operationId: `get_${r}_${k}`, summary: `Get ${r} ${k}`, responses: { '200': { description: 'OK' } } } };
      }
    }
    const spec = join(scratch, 'ledger.json');
    writeFileSync(spec, JSON.stringify({ openapi: '3.0.3', info: { title: 'Ledger', version: '1' }, servers: [{ url: 'https://ledger.example' }], paths }));
    const said: string[] = [];
    const result = await importSpec(spec, { onProgress: (m) => said.push(m) });
    expect([...new Set(result.operations.map((o) => o.domain))].sort()).toEqual(['accounts', 'contacts', 'invoices', 'items', 'payments']);
    expect(said.some((m) => m.includes('domain "accounting" held 45 of 45 operations') && m.includes('5 domains'))).toBe(true);
  });

  test('an operation whose summary says it is deprecated is imported as deprecated, as with `deprecated: true`', async () => {
    const ok = { '200': { description: 'OK' } };
    const spec = join(scratch, 'users.json');
    writeFileSync(spec, JSON.stringify({
      openapi: '3.0.3', info: { title: 'Users', version: '1' }, servers: [{ url: 'https://users.example' }],
      paths: {
        '/users/search/prefix/{p}': { get: { operationId: 'searchByPrefix', summary: '[OBSOLETE] Do not use this to search users', responses: ok } },
        '/users/search': { post: { operationId: 'searchUsers', summary: 'Search users by name', responses: ok } },
        '/users/old': { get: { operationId: 'oldUsers', summary: 'List users', deprecated: true, responses: ok } },
      },
    }));
    const { operations } = await importSpec(spec);
    expect(Object.fromEntries(operations.map((o) => [o.name, o.deprecated]))).toEqual({ searchByPrefix: true, searchUsers: false, oldUsers: true });
  });

  test('an operation that deletes through a POST is destructive, as a DELETE is; the curation extension still decides', async () => {
    const ok = { '200': { description: 'OK' } };
    const spec = join(scratch, 'tags.json');
    writeFileSync(spec, JSON.stringify({
      openapi: '3.0.3', info: { title: 'Tags', version: '1' }, servers: [{ url: 'https://tags.example' }],
      paths: {
        '/tags/delete.json': { post: { operationId: 'deleteTag', summary: 'Deletes a tag permanently', responses: ok } },
        '/tags/info.json': { post: { operationId: 'tagInfo', summary: 'Information about a tag', responses: ok } },
        '/tags/purge-cache.json': { post: { operationId: 'purgeCache', summary: 'Purge the cache', 'x-api-catalog-destructive': false, responses: ok } },
        '/tags/{id}': { delete: { operationId: 'removeTag', summary: 'Remove a tag', responses: ok } },
      },
    }));
    const { operations } = await importSpec(spec);
    expect(Object.fromEntries(operations.map((o) => [o.name, o.destructive]))).toEqual({ deleteTag: true, tagInfo: false, purgeCache: false, removeTag: true });
  });
});
