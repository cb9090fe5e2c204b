// list_domains stays a map whatever the API's size: past MAP_LIMIT domains it folds names that share their first
// words into groups that `prefix` opens, lists unfoldable ones without descriptions, and never loses a domain
// (walking the groups reaches every one). Unit checks of the folding, then real imported registries through a real
// MCP client of each era.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { COMPACT_LIMIT, MAP_LIMIT, domainMap, groupPrefixes, underPrefix, type MapDomain } from '../../src/server/core/domain-map.js';
import { importSpec } from '../../src/importer/index.js';
import { writeRegistry } from '../../src/importer/write.js';
import { MAX_CREDENTIALS } from '../../src/server/core/domains.js';
import { loadCatalogSet } from '../../src/server/core/catalogs.js';
import { domainsPage } from '../../src/server/explorer/pages.js';
import { ERAS, REPO_ROOT, builtCli, call, connectInMemory, fixtureRegistry, type Connected } from '../helpers/mcp.js';
import { runProcess } from '../helpers/run.js';
import { tempDir } from '../helpers/temp.js';

const domain = (name: string, toolCount = 2): MapDomain => ({ name, toolCount, description: `About ${name}.` });
const byName = (a: MapDomain, b: MapDomain): number => (a.name < b.name ? -1 : 1);

describe('folding domain names', () => {
  test('up to MAP_LIMIT domains: every one, with its description, nothing grouped', () => {
    const all = Array.from({ length: MAP_LIMIT }, (_, i) => domain(`area${i}-things`));
    expect(domainMap(all)).toEqual({ domains: all });
  });

  test('past it: names sharing their first word are one group (counts, largest members); a group of one is its domain', () => {
    const all = [
      ...Array.from({ length: 60 }, (_, i) => domain(`devices-kind${String(i).padStart(2, '0')}`, i === 7 ? 30 : 2)),
      ...Array.from({ length: 50 }, (_, i) => domain(`users-kind${String(i).padStart(2, '0')}`)),
      domain('admin', 4),
      domain('admin-settings', 3),
      domain('billing', 9),
    ].sort(byName);
    const map = domainMap(all);
    expect(map.groups).toEqual([
      { prefix: 'admin', domainCount: 2, toolCount: 7, largest: ['admin', 'admin-settings'] },
      { prefix: 'devices', domainCount: 60, toolCount: 30 + 59 * 2, largest: ['devices-kind07', 'devices-kind00', 'devices-kind01'] },
      { prefix: 'users', domainCount: 50, toolCount: 100, largest: ['users-kind00', 'users-kind01', 'users-kind02'] },
    ]);
    expect(map.domains).toEqual([domain('billing', 9)]);
    expect(map.omittedDomains).toBeUndefined();
    // `prefix` opens a group: its 60 domains fit, so they are listed in full
    const devices = all.filter((d) => underPrefix(d.name, 'devices'));
    expect(domainMap(devices, 'devices')).toEqual({ domains: devices });
  });

  test('one shared prefix (a catalog of a multi-catalog set) is looked through: the groups are one word deeper', () => {
    const all = Array.from({ length: 120 }, (_, i) => domain(`big.area${i % 4}-kind${String(i).padStart(3, '0')}`));
    const map = domainMap(all.sort(byName));
    expect(map.groups?.map((g) => [g.prefix, g.domainCount])).toEqual([['big.area0', 30], ['big.area1', 30], ['big.area2', 30], ['big.area3', 30]]);
  });

  test('names that do not fold are listed by name and count only, up to COMPACT_LIMIT entries', () => {
    const all = Array.from({ length: 151 }, (_, i) => domain(`devicemanagement-kind${String(i).padStart(3, '0')}`)).sort(byName);
    const map = domainMap(all, 'devicemanagement');
    expect(map.domains).toHaveLength(151);
    expect(map.domains.every((d) => d.description === undefined)).toBe(true);
    expect(map.groups).toEqual([]);
  });

  test('past COMPACT_LIMIT entries the largest stay (name order) and the others are counted, none silently', () => {
    const all = Array.from({ length: COMPACT_LIMIT + 50 }, (_, i) => domain(`api${String(i).padStart(4, '0')}.things`, i % 10 === 0 ? 50 : 1)).sort(byName);
    const map = domainMap(all);
    const shown = map.domains.length + (map.groups?.length ?? 0);
    expect(shown).toBe(MAP_LIMIT);
    expect(map.domains.filter((d) => d.toolCount === 50)).toHaveLength(Math.ceil(all.length / 10));
    expect(map.domains.every((d) => d.description === undefined)).toBe(true);
    expect(map.domains.map((d) => d.name)).toEqual([...map.domains.map((d) => d.name)].sort());
    expect(map.omittedDomains).toBe(all.length - MAP_LIMIT);
  });

  test('prefixes stop at word boundaries, and the offered ones are those two or more names share', () => {
    expect(underPrefix('admin-edge', 'admin')).toBe(true);
    expect(underPrefix('admin', 'admin')).toBe(true);
    expect(underPrefix('administrativeunits', 'admin')).toBe(false);
    expect(underPrefix('github.issues', 'github')).toBe(true);
    expect(groupPrefixes(['admin', 'admin-edge', 'admin-edge-x', 'users-a', 'billing'])).toEqual(['admin', 'admin-edge']);
    expect(groupPrefixes(['admin', 'administrativeunits', 'users-a', 'users'])).toEqual(['users']);
  });
});

/** A spec whose operations carry `tags`: one GET per tag and resource, so every tag is a domain. */
function specWithTags(tags: readonly string[]): object {
  const paths: Record<string, unknown> = {};
  for (const tag of tags) {
    const path = `/${tag.replace(/[^a-z0-9]+/g, '/')}`;
    paths[path] = { get: { operationId: `list_${tag.replace(/[^a-z0-9]+/g, '_')}`, summary: `List ${tag.replace(/-/g, ' ')}`, tags: [tag], responses: { 200: { description: 'ok' } } } };
    paths[`${path}/{id}`] = { get: { operationId: `get_${tag.replace(/[^a-z0-9]+/g, '_')}`, summary: `Get one of ${tag.replace(/-/g, ' ')}`, tags: [tag], parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { 200: { description: 'ok' } } } };
  }
  return { openapi: '3.0.3', info: { title: 'Large', version: '1' }, servers: [{ url: 'https://large.example.com' }], paths };
}

/** Every domain the map leads to, following each group's prefix (and the catalog, with several loaded). */
async function walk(c: Connected, args: Record<string, unknown>, found: Set<string>, depth = 0): Promise<void> {
  const r = await call(c.client, 'list_domains', args);
  expect(r.success, JSON.stringify(r)).toBe(true);
  const value = r.value as { domains: Array<{ name: string }>; groups?: Array<{ prefix: string; domainCount: number }>; omittedDomains?: number };
  expect(value.omittedDomains).toBeUndefined();
  expect(value.domains.length + (value.groups?.length ?? 0)).toBeLessThanOrEqual(COMPACT_LIMIT);
  for (const d of value.domains) found.add(d.name);
  for (const g of value.groups ?? []) {
    expect(depth).toBeLessThan(6);
    await walk(c, { ...args, prefix: g.prefix }, found, depth + 1);
  }
}

describe.each(ERAS)('list_domains of a large API (%s era)', (era) => {
  const areas = ['devices', 'users', 'groups', 'sites', 'teams'];
  const tags = [...areas.flatMap((a) => Array.from({ length: 30 }, (_, i) => `${a}-kind${String(i).padStart(2, '0')}`)), 'billing', 'admin', 'admin-settings'];
  let dir: string;
  const open: Connected[] = [];
  beforeAll(async () => {
    const root = tempDir('domain-map-');
    const spec = join(root, 'large.json');
    writeFileSync(spec, JSON.stringify(specWithTags(tags)));
    writeRegistry(await importSpec(spec, { name: 'large' }), root);
    dir = join(root, 'large');
  }, 120_000);
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
  });
  const connect = async (...dirs: string[]): Promise<Connected> => {
    const c = await connectInMemory({ catalogs: loadCatalogSet(dirs) }, { era });
    open.push(c);
    return c;
  };

  test('the map is groups, each opened by its prefix; walking them reaches every domain exactly as loaded', async () => {
    const c = await connect(dir);
    const r = await call(c.client, 'list_domains', {});
    const value = r.value as { totalDomains: number; domains: unknown[]; groups: Array<{ prefix: string; domainCount: number }> };
    expect(value.totalDomains).toBe(tags.length);
    expect(value.groups.map((g) => [g.prefix, g.domainCount])).toEqual([['admin', 2], ['devices', 30], ['groups', 30], ['sites', 30], ['teams', 30], ['users', 30]]);
    expect(r.instruction).toMatch(/"prefix"/);
    expect(JSON.stringify(r.value).length).toBeLessThan(4_000);
    const found = new Set<string>();
    await walk(c, {}, found);
    expect([...found].sort()).toEqual(loadCatalogSet([dir]).domainNames);
    // a group's domains are names search_tools takes as they are
    const teams = await call(c.client, 'list_domains', { prefix: 'teams' });
    const first = (teams.value as { domains: Array<{ name: string; description?: string }> }).domains[0];
    expect(first).toMatchObject({ name: 'teams-kind00', toolCount: 2 });
    expect(first?.description).toBeTruthy();
    const s = await call(c.client, 'search_tools', { query: 'get one', domain: first?.name });
    expect(s.success).toBe(true);
  });

  test('a group passed to search_tools as its domain is searched as one: its domains, ranked as the unscoped search', async () => {
    const c = await connect(dir);
    const r = await call(c.client, 'search_tools', { query: 'get one', domain: 'teams', limit: 25 });
    expect(r.success, JSON.stringify(r.error)).toBe(true);
    const results = r.value.results as Array<{ name: string; domain: string; score: number }>;
    expect(results.length).toBe(25);
    for (const x of results) expect(x.domain.startsWith('teams-'), x.domain).toBe(true);
    // the whole API's ranking, kept to the group: the same order and scores (paged through to the group's 25th)
    const all: Array<{ name: string; domain: string; score: number }> = [];
    for (let offset = 0; all.filter((x) => x.domain.startsWith('teams-')).length < 25; offset += 25) {
      const page = await call(c.client, 'search_tools', { query: 'get one', limit: 25, offset });
      expect(page.value.results.length, 'the unscoped search ran out before the group did').toBeGreaterThan(0);
      all.push(...page.value.results);
    }
    const expected = all.filter((x) => x.domain.startsWith('teams-')).slice(0, 25);
    expect(results.map((x) => [x.name, x.score])).toEqual(expected.map((x) => [x.name, x.score]));
    // `admin` is a domain and a group (admin, admin-settings): the domain is searched, as before
    const admin = await call(c.client, 'search_tools', { domain: 'admin' });
    expect(new Set((admin.value.results as Array<{ domain: string }>).map((x) => x.domain))).toEqual(new Set(['admin']));
  });

  test('a prefix no domain has is refused with the groups and domains closest to it', async () => {
    const c = await connect(dir);
    const r = await call(c.client, 'list_domains', { prefix: 'devises' });
    expect(r.isError).toBe(true);
    expect(r.error?.code).toBe('INVALID_ARGUMENTS');
    expect(r.error?.details.suggestions[0]).toBe('devices');
    const part = await call(c.client, 'list_domains', { prefix: 'dev' });
    // whole words only: "dev" is not a word of "devices-kind00"
    expect(part.error?.message).toMatch(/no domain is under the prefix "dev" \(a prefix is whole words of a name/);
  });

  test('several catalogs: the catalogs are the first groups, and a catalog of its own is grouped a word deeper', async () => {
    const c = await connect(dir, fixtureRegistry('petstore'));
    const top = await call(c.client, 'list_domains', {});
    const groups = (top.value as { groups: Array<{ prefix: string }> }).groups.map((g) => g.prefix);
    expect(groups).toContain('large');
    const large = await call(c.client, 'list_domains', { catalog: 'large' });
    expect((large.value as { groups: Array<{ prefix: string }> }).groups.map((g) => g.prefix)).toEqual(['large.admin', 'large.devices', 'large.groups', 'large.sites', 'large.teams', 'large.users']);
    const found = new Set<string>();
    await walk(c, {}, found);
    expect([...found].sort()).toEqual(loadCatalogSet([dir, fixtureRegistry('petstore')]).domainNames);
  });

  test("a person's views list every domain: the CLI's domains and the explorer (which says agents get groups)", async () => {
    const set = loadCatalogSet([dir]);
    const page = domainsPage({ catalogs: set, settings: { baseUrls: {}, readOnly: true, env: {} } }, 0).body.toString();
    expect(page).toContain(`agents get them folded into groups by the first words of their names`);
    expect(page).toContain('admin-settings');
    expect(page).toContain('1–25 of 153');
    const cli = await runProcess(process.execPath, [builtCli(), 'domains', '--registry', dir, '--json'], { cwd: REPO_ROOT });
    expect(cli.status, cli.stderr).toBe(0);
    const listed = (JSON.parse(cli.stdout) as { value: { domains: Array<{ name: string; description: string }>; groups?: unknown } }).value;
    expect(listed.groups).toBeUndefined();
    expect(listed.domains.map((d) => d.name)).toEqual(set.domainNames);
    expect(listed.domains.every((d) => typeof d.description === 'string')).toBe(true);
  });

  test('a small API keeps the flat map: every domain with its description, no groups', async () => {
    const c = await connect(fixtureRegistry('petstore'));
    const r = await call(c.client, 'list_domains', {});
    const value = r.value as { domains: Array<{ description?: string }>; groups?: unknown };
    expect(value.groups).toBeUndefined();
    expect(value.domains.every((d) => typeof d.description === 'string')).toBe(true);
  });
});

describe('names that run their words together fold into no group', () => {
  test('no prefix is offered that would name nothing: the instruction says search, and counts what is left out', async () => {
    // an API whose tags run words together (Autotask's CompanyAlertsChild becomes companyalertschild): past
    // COMPACT_LIMIT such names no two share a first word, so the answer has no group to open
    const tags = Array.from({ length: COMPACT_LIMIT + 10 }, (_, i) => `kind${String(i).padStart(3, '0')}things`);
    const root = tempDir('domain-map-glued-');
    const spec = join(root, 'glued.json');
    writeFileSync(spec, JSON.stringify(specWithTags(tags)));
    writeRegistry(await importSpec(spec, { name: 'glued' }), root);
    const c = await connectInMemory({ catalogs: loadCatalogSet([join(root, 'glued')]) }, { era: 'modern' });
    try {
      const r = await call(c.client, 'list_domains', {});
      const value = r.value as { domains: unknown[]; groups?: unknown[]; omittedDomains?: number };
      expect(value.groups).toEqual([]);
      expect(value.omittedDomains).toBe(tags.length - value.domains.length);
      expect(r.instruction).not.toMatch(/prefix/);
      expect(r.instruction).toBe(
        `${tags.length} domains, too many to list with descriptions, and no two share a first word, so none are grouped: call search_tools with a query (it searches every domain), with a domain of this answer to narrow it. ${value.omittedDomains} domains are in no entry of this answer; search_tools finds their operations.`,
      );
    } finally {
      await c.close();
    }
  }, 120_000);
});

describe('credentials are bounded like the map', () => {
  test('past MAX_CREDENTIALS the first are listed, the rest counted, and the instruction names describe_tools', async () => {
    const root = tempDir('domain-map-creds-');
    const schemes = Array.from({ length: MAX_CREDENTIALS + 5 }, (_, i) => `key${String(i).padStart(2, '0')}`);
    const paths = Object.fromEntries(
      schemes.map((k) => [`/things/${k}`, { get: { operationId: `get_${k}`, summary: `Get ${k}`, security: [{ [k]: [] }], responses: { 200: { description: 'ok' } } } }]),
    );
    const spec = {
      openapi: '3.0.3',
      info: { title: 'Keys', version: '1' },
      servers: [{ url: 'https://keys.example.com' }],
      // two bearer schemes past the bound (their env var is the catalog's token); the rest API keys
      components: { securitySchemes: Object.fromEntries(schemes.map((k) => [k, k === 'key22' || k === 'key24' ? { type: 'http', scheme: 'bearer' } : { type: 'apiKey', in: 'header', name: `X-${k}` }])) },
      paths,
    };
    writeFileSync(join(root, 'keys.json'), JSON.stringify(spec));
    writeRegistry(await importSpec(join(root, 'keys.json'), { name: 'keys' }), root);
    const c = await connectInMemory({ catalogs: loadCatalogSet([join(root, 'keys')]) });
    try {
      const r = await call(c.client, 'list_domains', {});
      const value = r.value as { credentials: Array<{ scheme: string }>; omittedCredentials: number };
      expect(value.credentials.map((x) => x.scheme)).toEqual(schemes.slice(0, MAX_CREDENTIALS));
      expect(value.omittedCredentials).toBe(5);
      expect(r.instruction).toMatch(/5 more credentials are not listed \(those set come first\): describe_tools names the ones each operation uses/);
    } finally {
      await c.close();
    }
    // the two bearer schemes past the bound are set in this deployment: listed first, the rest in name order
    const full = await connectInMemory({ catalogs: loadCatalogSet([join(root, 'keys')]), settings: { baseUrls: {}, readOnly: false, env: {} } });
    let envOf: Record<string, string> = {};
    try {
      const r = await call(full.client, 'describe_tools', { tool_names: ['get_key22', 'get_key24'] });
      const tools = (r.value as { tools: Array<{ name: string; credentials: string }> }).tools;
      envOf = Object.fromEntries(tools.map((t) => [t.name, /[A-Z][A-Z0-9_]+/.exec(t.credentials)?.[0] ?? '']));
    } finally {
      await full.close();
    }
    expect(envOf.get_key22).toMatch(/^KEYS_/);
    const set = await connectInMemory({
      catalogs: loadCatalogSet([join(root, 'keys')]),
      settings: { baseUrls: {}, readOnly: false, env: { [envOf.get_key22 ?? '']: 'k-22-token' } },
    });
    try {
      const r = await call(set.client, 'list_domains', {});
      const value = r.value as { credentials: Array<{ scheme: string; set: boolean }>; omittedCredentials: number };
      expect(value.credentials.map((x) => `${x.scheme}${x.set ? ' (set)' : ''}`)).toEqual(['key22 (set)', 'key24 (set)', ...schemes.slice(0, MAX_CREDENTIALS - 2)]);
      expect(value.omittedCredentials).toBe(5);
      expect(envOf.get_key24).toBe(envOf.get_key22);
      expect(JSON.stringify(r)).not.toMatch(/k-22-token/);
    } finally {
      await set.close();
    }
  });
});
