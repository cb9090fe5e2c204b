// The real GitHub and Stripe specs (openapi/github.json, test/fixtures/real-specs/stripe.json) as regression
// fixtures: each imported once per file and shared by the tests below. Also: the committed registry/github must
// match a fresh import (no drift). The import's time budget (D13) is measured by `npm run bench`, not here.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { recordedDisplay } from '../../src/cli/import-recorded.js';
import { checkRegistry, importSpec } from '../../src/importer/index.js';
import type { ImportResult } from '../../src/importer/index.js';
import { createAjv } from '../../src/schema/ajv.js';
import { findPlaceholders } from '../../src/server/core/placeholders.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const REAL_SPECS = join(ROOT, 'test', 'fixtures', 'real-specs');

/**
 * Every inputSchema compiles, every example validates (but for describe's placeholders, which a pattern may refuse:
 * execute refuses them anyway), names are unique and safe.
 */
function expectRegistryInvariants(r: ImportResult): void {
  const ajv = createAjv();
  const names = new Set<string>();
  const failures: string[] = [];
  for (const op of r.operations) {
    expect(op.name).toMatch(/^[A-Za-z0-9_.-]{1,64}$/);
    expect(names.has(op.name), `duplicate ${op.name}`).toBe(false);
    names.add(op.name);
    const validate = ajv.compile(op.inputSchema);
    for (const ex of op.examples) {
      if (validate(ex.args)) continue;
      const at = new Set(findPlaceholders(ex.args, op.inputSchema).map((p) => p.pointer));
      if (!(validate.errors ?? []).every((e) => at.has(e.instancePath))) failures.push(`${op.name}: ${ajv.errorsText(validate.errors)}`);
    }
    ajv.removeSchema(op.inputSchema);
    expect(op.summary.split(/\s+/).length).toBeLessThanOrEqual(12);
    expect(op.bindings.map((b) => b.arg)).toEqual(Object.keys(op.inputSchema.properties));
  }
  expect(failures).toEqual([]);
  expect(r.meta.operationCount).toBe(r.operations.length);
  expect(r.meta.domains.reduce((n, d) => n + d.toolCount, 0)).toBe(r.operations.length);
}

describe('GitHub (openapi/github.json)', () => {
  let r: ImportResult;
  beforeAll(async () => {
    // as `import --check` does: with the display name and description the committed catalog.json records
    r = await importSpec(join(ROOT, 'openapi', 'github.json'), recordedDisplay(join(ROOT, 'registry', 'github', 'catalog.json')));
  });

  test('imports all 1,223 operations (D13; its time budget is in npm run bench)', () => {
    expect(r.operations.length).toBe(1223);
  });

  test('registry invariants: schemas compile, examples validate, names unique', () => {
    expectRegistryInvariants(r);
    expect(r.operations.filter((o) => o.examples.length === 0).map((o) => o.name)).toEqual([]);
  });

  test('issues/create is flat: owner, repo, title, body, labels side by side', () => {
    const op = r.operations.find((o) => o.operationId === 'issues/create');
    expect(op).toMatchObject({ name: 'issues_create', domain: 'issues', summary: 'Create an issue', method: 'post', path: '/repos/{owner}/{repo}/issues' });
    expect(Object.keys(op?.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['owner', 'repo', 'title', 'body', 'labels']));
    expect(op?.inputSchema.required).toEqual(['owner', 'repo', 'title']);
  });

  test('the nullable-without-type schemas now compile and accept null (D14)', () => {
    const ajv = createAjv();
    const nullableAnyOf = r.operations.filter((o) => JSON.stringify(o.inputSchema).includes('{"type":"null"}'));
    expect(nullableAnyOf.length).toBeGreaterThan(0);
    for (const op of nullableAnyOf) expect(() => ajv.compile(op.inputSchema)).not.toThrow();
  });

  test('domains come from tags and carry the tag description', () => {
    const issues = r.meta.domains.find((d) => d.name === 'issues');
    expect(issues?.description).toMatch(/issues/i);
    expect(r.meta.domains.length).toBeGreaterThan(30);
  });

  test('the committed registry/github matches a fresh import (run `npm run import -- openapi/github.json` if not)', () => {
    const report = checkRegistry(r, join(ROOT, 'registry'));
    expect(report).toEqual({ upToDate: true, missing: [], extra: [], changed: [] });
  });
});

describe('Stripe (no tags, no summaries, HTML, form bodies)', () => {
  let r: ImportResult;
  beforeAll(async () => {
    r = await importSpec(join(REAL_SPECS, 'stripe.json'));
  });

  test('imports every operation; invariants hold', () => {
    expect(r.operations.length).toBe(452);
    expectRegistryInvariants(r);
    expect(r.operations.every((o) => o.examples.length > 0)).toBe(true);
  });

  test('domains come from paths, skipping /v1', () => {
    const names = r.meta.domains.map((d) => d.name);
    expect(names).toEqual(expect.arrayContaining(['customers', 'invoices', 'payment_intents', 'subscriptions', 'charges']));
    expect(names).not.toContain('v1');
    const customers = r.meta.domains.find((d) => d.name === 'customers');
    expect(customers?.description.startsWith('Customers: ')).toBe(true);
  });

  test('summaries come from the HTML descriptions, without markup', () => {
    const op = r.operations.find((o) => o.operationId === 'PostCustomers');
    expect(op?.summary).toBe('Creates a new customer object');
    expect(r.operations.every((o) => !/<[a-z]+[ >]/i.test(o.summary + o.description))).toBe(true);
  });

  test('form-encoded bodies are flattened with their encoding kept', () => {
    const op = r.operations.find((o) => o.operationId === 'PostCustomers');
    expect(op?.requestBody?.mediaTypes[0]).toBe('application/x-www-form-urlencoded');
    expect(op?.requestBody?.mode).toBe('properties');
    expect(op?.requestBody?.encoding?.metadata).toEqual({ style: 'deepObject', explode: true });
    expect(op?.bindings.find((b) => b.arg === 'email')).toEqual({ arg: 'email', in: 'body', name: 'email', required: false });
    expect(r.meta.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});
