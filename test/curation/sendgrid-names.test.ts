// Names people can live with, end to end on SendGrid's real spec: `import --overlay test/fixtures/overlays/sendgrid-names.yaml`
// gives the catalog a display name and description (its spec says "Email Activity (beta)") and renames the contacts
// operations (GET_mc-contats -> contacts_sample). Through a real MCP client of each era: list_domains shows the catalog, search,
// describe and execute (over real HTTP to a local upstream) work by the new name, and the old name gets "did you
// mean" with the new one. The built CLI's start banner shows the display name.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run as importCli } from '../../src/cli/import.js';
import { loadCatalogSet } from '../../src/server/core/catalogs.js';
import type { CatalogMeta } from '../../src/types.js';
import { runCaptured } from '../helpers/cli.js';
import { ERAS, REPO_ROOT, builtCli, call, connectInMemory, fixtureRegistry, type Connected, type Era } from '../helpers/mcp.js';
import { handlesIn } from '../helpers/describe-handles.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { tempDir } from '../helpers/temp.js';

const SPEC = join(REPO_ROOT, 'test', 'fixtures', 'real-specs', 'sendgrid.json');
const OVERLAY = join(REPO_ROOT, 'test', 'fixtures', 'overlays', 'sendgrid-names.yaml');
const TITLE = 'SendGrid v3 API';
const DESCRIPTION = 'Send email and manage marketing contacts, lists, templates, suppressions and statistics.';
const KEY = 'SG.canaryKeyForNamesTest01.canarySecretPartForNamesTest0123';

let out = '';
let up: Upstream;

beforeAll(async () => {
  out = tempDir('ac-sendgrid-names-');
  const imported = await runCaptured(importCli, [SPEC, '--overlay', OVERLAY, '--out', out]);
  expect(imported.code, imported.stderr).toBe(0);
  expect(imported.stdout).toContain('13 operation(s) renamed (x-api-catalog-name): DELETE_mc-contacts -> contacts_delete');
  up = await startUpstream();
}, 120_000);

afterAll(async () => {
  await up?.close();
});

describe('SendGrid with display names', () => {
  test('catalog.json records the display name, description and the renames; import --check agrees', async () => {
    const meta = JSON.parse(readFileSync(join(out, 'sendgrid', 'catalog.json'), 'utf8')) as CatalogMeta;
    expect(meta).toMatchObject({ title: TITLE, description: DESCRIPTION });
    expect(meta.renamed?.['GET_mc-contats']).toBe('contacts_sample');
    const check = await runCaptured(importCli, [SPEC, '--out', out, '--check']);
    expect(check.code, check.stderr).toBe(0);
  });

  test('the start banner names the catalog by its display name', () => {
    // stdin closes at once: the server starts, prints its banner and exits 0
    const r = spawnSync(process.execPath, [builtCli(), 'serve', '--registry', join(out, 'sendgrid')], { cwd: REPO_ROOT, encoding: 'utf8', input: '', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain(`api-catalog: serving ${TITLE} (334 operations) over stdio`);
  });
});

describe.each(ERAS)('SendGrid with display names, through a %s client', (era: Era) => {
  let c: Connected;
  beforeAll(async () => {
    c = await connectInMemory(
      {
        catalogs: loadCatalogSet([join(out, 'sendgrid')]),
        settings: { baseUrls: { sendgrid: up.url }, readOnly: false, env: { SENDGRID_API_KEY: KEY } },
        rateLimitPerMinute: 0,
      },
      { era },
    );
  });
  afterAll(async () => {
    await c?.close();
  });

    test('list_domains says which API this is: its display name and description, not the spec title', async () => {
      const r = await call(c.client, 'list_domains', {});
      expect(r.success).toBe(true);
      expect(r.value.catalog).toEqual({ name: 'sendgrid', title: TITLE, description: DESCRIPTION });
      expect(JSON.stringify(r.value)).not.toContain('Email Activity (beta)');
    });

    test('search, describe and execute by the new name', async () => {
      const s = await call(c.client, 'search_tools', { query: 'get sample contacts', limit: 3 });
      expect(s.value.results[0]).toMatchObject({ name: 'contacts_sample', domain: 'contacts', summary: 'Get Sample Contacts' });
      // the spec's own id still finds it (search matches operationIds), under its new name
      const byId = await call(c.client, 'search_tools', { query: 'GET_mc-contats', limit: 3 });
      expect(byId.value.results[0].name).toBe('contacts_sample');

      const d = await call(c.client, 'describe_tools', { tool_names: ['contacts_sample'] });
      expect(d.success).toBe(true);
      expect(d.value.tools[0]).toMatchObject({ name: 'contacts_sample', method: 'GET', path: '/marketing/contacts' });

      up.clear();
      up.route('/marketing/contacts', { kind: 'status', status: 200, body: { result: [{ email: 'ada@example.com' }], contact_count: 1 } });
      // with the describe handle, which a 2026-07-28 connection requires (it remembers nothing)
      const e = await call(c.client, 'execute_tool', { tool_name: 'contacts_sample', args: {}, handle: handlesIn(d).contacts_sample });
      expect(e.success, JSON.stringify(e.error)).toBe(true);
      expect(e.tool).toBe('contacts_sample');
      expect(e.value).toMatchObject({ status: 200, data: { contact_count: 1 } });
      const [sent] = up.hits('/marketing/contacts');
      expect(sent?.method).toBe('GET');
      expect(sent?.headers.authorization).toContain(KEY);
    });

    test('the old name gets "did you mean" with the new one, from describe, execute and the resource', async () => {
      const d = await call(c.client, 'describe_tools', { tool_names: ['GET_mc-contats'] });
      expect(d.error?.code).toBe('UNKNOWN_TOOL');
      expect(d.error?.details.tools[0].error.suggestions[0]).toBe('contacts_sample');
      const e = await call(c.client, 'execute_tool', { tool_name: 'GET_mc-contats', args: {} });
      expect(e.error?.code).toBe('UNKNOWN_TOOL');
      expect(e.error?.details.suggestions[0]).toBe('contacts_sample');
      // the resource, naming only the old name, does not exist: the message names the new one
      await expect(c.client.readResource({ uri: 'resource:///tool_descriptions?tools=GET_mc-contats' })).rejects.toThrow(/'GET_mc-contats' \(did you mean contacts_sample[,?]/);
      const res = await c.client.readResource({ uri: 'resource:///tool_descriptions?tools=GET_mc-contats,contacts_sample' });
      const body = JSON.parse((res.contents[0] as { text: string }).text) as Record<string, { suggestions: string[] }>;
      expect(body['GET_mc-contats']?.suggestions[0]).toBe('contacts_sample');
    });

    test('with several catalogs the former name is prefixed like every name', async () => {
      const multi = await connectInMemory({ catalogs: loadCatalogSet([join(out, 'sendgrid'), fixtureRegistry('petstore')]) }, { era });
      try {
        const e = await call(multi.client, 'describe_tools', { tool_names: ['sendgrid.GET_mc-contats'] });
        expect(e.error?.details.tools[0].error.suggestions[0]).toBe('sendgrid.contacts_sample');
        const l = await call(multi.client, 'list_domains', {});
        expect(l.value.catalogs.find((x: { name: string }) => x.name === 'sendgrid')).toEqual({ name: 'sendgrid', title: TITLE, description: DESCRIPTION, toolCount: 334 });
      } finally {
        await multi.close();
      }
    });
});
