// selectHeaders keeps headers by kind, not by vendor (issue 26 item 4): GitHub's and Stripe's own headers are kept
// as instances of request ids and retry hints, and so are any other API's.
import { describe, expect, test } from 'vitest';
import { selectHeaders } from '../../src/execution/shape.js';

describe('selectHeaders: by pattern', () => {
  test.each([
    // the body and where things are
    ['content-type', true], ['ETag', true], ['location', true], ['link', true],
    // request ids, any vendor
    ['x-github-request-id', true], ['request-id', true], ['x-request-id', true], ['x-amzn-trace-id', true], ['x-correlation-id', true], ['cf-ray', false],
    // rate limits and retry hints
    ['x-ratelimit-remaining', true], ['ratelimit-reset', true], ['x-rate-limit-limit', true], ['retry-after', true], ['stripe-should-retry', true], ['x-should-retry', true],
    // pagination
    ['x-total-count', true], ['x-next-page', true], ['x-next-cursor', true], ['x-has-more', true], ['x-per-page', true], ['total-results', true],
    // idempotency
    ['idempotency-key', true], ['idempotent-replayed', true],
    // never: cookies, server banners, anything else
    ['set-cookie', false], ['server', false], ['x-powered-by', false], ['authorization', false],
  ])('%s kept: %s', (name, kept) => {
    const out = selectHeaders(new Headers({ [name]: 'v' }));
    expect(Object.hasOwn(out, name.toLowerCase())).toBe(kept);
  });
});
