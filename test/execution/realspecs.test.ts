// Real operations from the Stripe and GitHub catalogs: Stripe's form-encoded bodies (bracket style), multipart
// file upload, auth alternatives and cursor pagination on the wire; and every example of every operation of
// both catalogs validates and builds a request that stays on the API's (or the operation's) origin.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeOperation, prepareRequest, validateArguments, type ExecutionConfig } from '../../src/execution/index.js';
import { importSpec } from '../../src/importer/index.js';
import { loadCatalog } from '../../src/registry/catalog.js';
import { findPlaceholders } from '../../src/server/core/placeholders.js';
import type { CatalogMeta, Operation } from '../../src/types.js';
import { repoRoot } from '../helpers/prism.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

/** Stripe imported from the copy in the repository (never a cached registry, which could be stale). */
async function stripeCatalog(): Promise<{ meta: CatalogMeta; operations: Operation[] }> {
  return importSpec(join(repoRoot, 'test', 'fixtures', 'real-specs', 'stripe.json'));
}

let up: Upstream;
let stripe: { meta: CatalogMeta; operations: Operation[] };
let byId: Map<string, Operation>;
let cfg: ExecutionConfig;
beforeAll(async () => {
  up = await startUpstream();
  stripe = await stripeCatalog();
  byId = new Map(stripe.operations.map((o) => [o.operationId, o]));
}, 120_000);
afterAll(async () => {
  await up.close();
});

function stripeOp(id: string): Operation {
  const o = byId.get(id);
  if (o === undefined) throw new Error(`no Stripe operation ${id}`);
  return o;
}

describe('Stripe on the wire', () => {
  beforeAll(() => {
    cfg = { catalog: stripe.meta, baseUrl: up.url, env: { STRIPE_TOKEN: 'sk_test_wire_123' } };
  });

  it('creates a Checkout Session with bracket-encoded line items and metadata, bearer auth', async () => {
    up.clear();
    const out = await executeOperation(
      stripeOp('PostCheckoutSessions'),
      {
        mode: 'payment',
        success_url: 'https://example.com/ok?session={CHECKOUT_SESSION_ID}',
        line_items: [{ price: 'price_123', quantity: 2 }, { price: 'price_456', quantity: 1 }],
        metadata: { order_id: '6735' },
        expand: ['payment_intent'],
      },
      cfg,
    );
    expect(out.ok, JSON.stringify(out).slice(0, 500)).toBe(true);
    const rec = up.requests[0]!;
    expect(rec.method).toBe('POST');
    expect(rec.url).toBe('/v1/checkout/sessions');
    expect(rec.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(rec.headers.authorization).toBe('Bearer sk_test_wire_123');
    const parts = rec.text.split('&');
    expect(parts).toEqual(
      expect.arrayContaining([
        'line_items[0][price]=price_123',
        'line_items[0][quantity]=2',
        'line_items[1][price]=price_456',
        'line_items[1][quantity]=1',
        'metadata[order_id]=6735',
        'mode=payment',
        'expand[0]=payment_intent',
        'success_url=https%3A%2F%2Fexample.com%2Fok%3Fsession%3D%7BCHECKOUT_SESSION_ID%7D',
      ]),
    );
    expect(parts).toHaveLength(8);
  });

  it('sends no body for an optional body without arguments, and basic auth when configured', async () => {
    up.clear();
    const o = stripeOp('PostCustomers');
    const out = await executeOperation(o, {}, { ...cfg, env: { STRIPE_USERNAME: 'sk_test_basic', STRIPE_PASSWORD: 'x1' } });
    expect(out.ok).toBe(true);
    expect(up.requests[0]!.headers.authorization).toBe(`Basic ${Buffer.from('sk_test_basic:x1').toString('base64')}`);
    expect(up.requests[0]!.text).toBe('');
  });

  it('uploads a file as multipart with a data: URL', async () => {
    up.clear();
    const pdf = Buffer.from('%PDF-1.4 test file');
    const out = await executeOperation(stripeOp('PostFiles'), { purpose: 'dispute_evidence', file: `data:application/pdf;base64,${pdf.toString('base64')}` }, cfg);
    expect(out.ok, JSON.stringify(out).slice(0, 400)).toBe(true);
    const rec = up.requests[0]!;
    const form = await new Response(rec.body, { headers: { 'content-type': rec.headers['content-type']! } }).formData();
    expect(form.get('purpose')).toBe('dispute_evidence');
    const file = form.get('file') as File;
    expect(file.type).toBe('application/pdf');
    expect(Buffer.from(await file.arrayBuffer()).toString()).toBe('%PDF-1.4 test file');
  });

  it('lists customers with query parameters and a starting_after hint', async () => {
    up.clear();
    up.route('/v1/customers', { kind: 'status', status: 200, body: { object: 'list', data: [{ id: 'cus_A' }, { id: 'cus_B' }], has_more: true, url: '/v1/customers' } });
    const out = await executeOperation(stripeOp('GetCustomers'), { limit: 2, email: 'a+b@example.com', created: { gte: 1700000000 } }, cfg);
    expect(out.ok && out.pagination).toEqual({ source: 'cursor', hasMore: true, nextArgs: { starting_after: 'cus_B' } });
    expect(up.requests[0]!.url).toBe('/v1/customers?created[gte]=1700000000&email=a%2Bb%40example.com&limit=2');
  });

  it('maps a Stripe error body to the message, rejected param and instruction', async () => {
    up.route('/v1/payment_intents', { kind: 'status', status: 400, body: { error: { type: 'invalid_request_error', code: 'parameter_missing', message: 'Missing required param: currency.', param: 'currency' } } });
    const out = await executeOperation(stripeOp('PostPaymentIntents'), { amount: 100, currency: 'usd' }, cfg);
    expect(out).toMatchObject({ ok: false, code: 'UPSTREAM_ERROR', status: 400, message: expect.stringMatching(/Missing required param: currency/), instruction: expect.stringMatching(/fields: currency/) });
  });
});

describe('every example of every operation builds a request on its own origin', () => {
  // Validating every example compiles every operation's schema: ~50 s for GitHub on a loaded 2-core machine. The
  // loop yields to the event loop per operation (a worker blocked for a minute misses vitest's RPC deadline,
  // "Timeout calling onTaskUpdate") and the limit is generous: this waits for the CPU, nothing is timed.
  it.each(['stripe', 'github'])('%s', async (which) => {
    const cat = which === 'stripe' ? stripe : loadCatalog(join(repoRoot, 'registry', 'github'));
    const origin = new URL(cat.meta.servers[0]!.url).origin;
    const config: ExecutionConfig = { catalog: cat.meta, env: { STRIPE_TOKEN: 'sk_x_secret', GITHUB_TOKEN: 'ghp_x_secret' } };
    const problems: string[] = [];
    let built = 0;
    for (const o of cat.operations) {
      await new Promise<void>((r) => setImmediate(r));
      for (const ex of o.examples) {
        const v = validateArguments(o, ex.args);
        if (!v.ok) {
          // describe's placeholder where a pattern refuses it (`"version": "<version>"`) is never sent: execute refuses it
          const at = new Set(findPlaceholders(ex.args, o.inputSchema).map((p) => p.pointer));
          if (v.errors.every((e) => at.has(e.path))) continue;
          problems.push(`${o.name}: example invalid: ${JSON.stringify(v.errors[0])}`);
          continue;
        }
        try {
          const allowed = o.servers.length > 0 ? new URL(o.servers[0]!.url.replace(/\{[^}]+\}/g, 'x')).origin : origin;
          // An operation's own server on another origin (GitHub uploads, Stripe files) needs the operator's
          // allowedOrigins (F7): refused without it, used with it.
          let opConfig = config;
          if (allowed !== origin) {
            expect(() => prepareRequest(o, v.args, config), o.name).toThrow(/allowedOrigins/);
            opConfig = { ...config, allowedOrigins: [allowed] };
          }
          const p = prepareRequest(o, v.args, opConfig);
          built++;
          if (new URL(p.url).origin !== allowed) problems.push(`${o.name}: left the origin: ${p.url}`);
          if (JSON.stringify(p).includes('_x_secret')) problems.push(`${o.name}: secret in dry run`);
        } catch (err) {
          problems.push(`${o.name}: ${String(err)}`);
        }
      }
    }
    expect(problems.slice(0, 10)).toEqual([]);
    expect(built).toBeGreaterThan(cat.operations.length * 0.9);
  }, 240_000);
});
