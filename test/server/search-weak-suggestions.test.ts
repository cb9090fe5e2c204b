// A weak search's `suggestions.domains` (the domains its answer says to browse) never come from a tie. The audit, on
// Data2CRM: "get company" matched only "get", every `get<X>Describe` at one score, listed by name, and the answer
// offered ["account", "attachment", "call"]: the alphabet's first three, whatever the request. Now a result's domain
// is offered only when its score stands above the others'; with nothing to offer, the answer points at list_domains.
// Catalogs written by the real importer, served to a real SDK client, in both protocol eras.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { ERAS, call, catalogs, connectInMemory, type Connected, type Era } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

const OBJECTS = ['Account', 'Attachment', 'Call', 'Case', 'Contact', 'Lead', 'Note', 'Opportunity', 'Task', 'User'];

/** A Data2CRM-like API: per object, `get<X>Describe` and `create<X>`, one domain each; `report` adds a revenue report. */
function crmSpec(report: boolean): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const o of OBJECTS) {
    const l = o.toLowerCase();
    paths[`/${l}/describe`] = { get: { tags: [l], operationId: `get${o}Describe`, summary: `Describe the ${l} object's fields`, responses: { '200': { description: 'ok' } } } };
    paths[`/${l}`] = { post: { tags: [l], operationId: `create${o}`, summary: `Create a ${l}`, responses: { '201': { description: 'ok' } } } };
  }
  if (report) {
    paths['/reports/revenue'] = { get: { tags: ['report'], operationId: 'getRevenueReport', summary: 'Get the revenue report', responses: { '200': { description: 'ok' } } } };
  }
  return { openapi: '3.0.3', info: { title: 'CRM', version: '1.0' }, servers: [{ url: 'https://crm.example.com' }], paths };
}

let tied: string;
let separated: string;
beforeAll(async () => {
  const dir = tempDir('weak-suggestions-');
  for (const [name, report] of [['crm', false], ['crmreport', true]] as const) {
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(crmSpec(report)));
    writeRegistry(await importSpec(file, { name }), join(dir, 'reg'));
  }
  tied = join(dir, 'reg', 'crm');
  separated = join(dir, 'reg', 'crmreport');
});

const open: Connected[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

async function connect(dir: string, era: Era): Promise<Connected> {
  const c = await connectInMemory({ catalogs: catalogs(dir) }, { era });
  open.push(c);
  return c;
}

type Result = { name: string; domain: string; score: number };

describe.each(ERAS)('%s era', (era: Era) => {
  test('every result ties: no domain is offered, and the answer points at list_domains', async () => {
    const c = await connect(tied, era);
    const r = await call(c.client, 'search_tools', { query: 'get company' });
    expect(r.success, JSON.stringify(r.error)).toBe(true);
    expect(r.value.confidence).toBe('low');
    const results = r.value.results as Result[];
    // the situation of the audit: a page of one score, in name order
    expect(results.length).toBeGreaterThan(3);
    expect(new Set(results.map((x) => x.score)).size).toBe(1);
    expect(r.value.suggestions.domains).toEqual([]);
    expect(r.value.hint).toContain('list_domains');
    expect(r.value.hint).not.toContain('undefined');
    expect(r.instruction).toContain('list_domains');
    expect(r.instruction).not.toContain('undefined');
  });

  test('a result that scores above the tie: its domain is offered, the tied ones are not', async () => {
    const c = await connect(separated, era);
    const r = await call(c.client, 'search_tools', { query: 'get company' });
    expect(r.value.confidence).toBe('low');
    const results = r.value.results as Result[];
    expect(results[0]?.name).toBe('getRevenueReport');
    expect(results[0]!.score).toBeGreaterThan(results[1]!.score);
    expect(r.value.suggestions.domains).toEqual(['report']);
    expect(r.instruction).toContain('"report"');
  });

  test('a weak search in a domain still offers that domain', async () => {
    const c = await connect(tied, era);
    const r = await call(c.client, 'search_tools', { query: 'get company', domain: 'lead' });
    expect(r.value.confidence).toBe('low');
    expect(r.value.suggestions.domains).toEqual(['lead']);
  });
});
