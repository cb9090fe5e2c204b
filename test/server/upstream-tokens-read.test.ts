// readUpstreamTokens keeps only the served catalogs' X-Upstream-Token-<catalog> headers: every kept value is registered
// for redaction for the rest of the process, so headers naming catalogs that are not served (any number of them in one
// request) must not be kept (second read of stop 48: 1,500 such headers grew the logger's list by 1,500).
import { expect, test } from 'vitest';
import { readUpstreamTokens } from '../../src/server/upstream-tokens.js';

test('only served catalogs\' headers are read; names match case-insensitively; the unbound header is kept', () => {
  const headers = new Headers({ 'X-Upstream-Token': 'plain-token', 'X-Upstream-Token-Stripe': 'stripe-token', 'X-Upstream-Token-Zoo': '' });
  for (let k = 0; k < 50; k++) headers.set(`X-Upstream-Token-unserved${k}`, `junk-${k}`);
  const tokens = readUpstreamTokens(headers, ['stripe', 'zoo']);
  expect(tokens.values.sort()).toEqual(['plain-token', 'stripe-token']);
  expect(tokens.forCatalog('stripe')).toBe('stripe-token');
  expect(tokens.forCatalog('zoo')).toBeUndefined(); // an empty value is not sent, and the plain header is no catalog's with two
  expect(tokens.forCatalog('unserved1')).toBeUndefined();
  // one catalog served: the plain header is its token
  expect(readUpstreamTokens(new Headers({ 'X-Upstream-Token': 'plain-token' }), ['petstore']).forCatalog('petstore')).toBe('plain-token');
});
