// Several catalogs whose names share a first word (`twilio-chat`, `twilio-video`): list_domains' map never splits a
// catalog's name at its hyphens. The catalogs are the top level of groups, each named by the whole catalog name
// (audit first51, defect 8: both showed as one group `twilio` whose `largest` named one catalog only). Unit checks of
// the folding, then real imported registries served by the built CLI to a real SDK client over stdio.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { domainMap, groupPrefixes, MAP_LIMIT, type MapDomain } from '../../src/server/core/domain-map.js';
import { importSpec } from '../../src/importer/index.js';
import { writeRegistry } from '../../src/importer/write.js';
import { loadCatalogSet } from '../../src/server/core/catalogs.js';
import { call, connectTracedServe } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

const domain = (name: string, toolCount = 2): MapDomain => ({ name, toolCount, description: `About ${name}.` });
const pad = (i: number): string => String(i).padStart(2, '0');

describe('folding the domains of several catalogs', () => {
  // 60 + 60 + 2 domains, past MAP_LIMIT; the video catalog's kind07 is its largest
  const all = [
    ...Array.from({ length: 60 }, (_, i) => domain(`twilio-chat.channels-kind${pad(i)}`)),
    ...Array.from({ length: 60 }, (_, i) => domain(`twilio-video.rooms-kind${pad(i)}`, i === 7 ? 9 : 1)),
    domain('ec2.instances', 5),
    domain('ec2.volumes', 3),
  ].sort((a, b) => (a.name < b.name ? -1 : 1));

  test('the top level is one group per catalog, named by the whole catalog name', () => {
    expect(all.length).toBeGreaterThan(MAP_LIMIT);
    const map = domainMap(all, undefined, { catalogs: true });
    expect(map.groups).toEqual([
      { prefix: 'ec2', domainCount: 2, toolCount: 8, largest: ['ec2.instances', 'ec2.volumes'] },
      { prefix: 'twilio-chat', domainCount: 60, toolCount: 120, largest: ['twilio-chat.channels-kind00', 'twilio-chat.channels-kind01', 'twilio-chat.channels-kind02'] },
      { prefix: 'twilio-video', domainCount: 60, toolCount: 68, largest: ['twilio-video.rooms-kind07', 'twilio-video.rooms-kind00', 'twilio-video.rooms-kind01'] },
    ]);
    expect(map.domains).toEqual([]);
  });

  test('inside a catalog the groups are its domains by their first words; words of a catalog name open the catalogs', () => {
    const many = Array.from({ length: 120 }, (_, i) => domain(`twilio-chat.${i % 2 === 0 ? 'channels' : 'services'}-kind${String(i).padStart(3, '0')}`));
    expect(domainMap(many, 'twilio-chat', { catalogs: true }).groups?.map((g) => [g.prefix, g.domainCount])).toEqual([['twilio-chat.channels', 60], ['twilio-chat.services', 60]]);
    // "twilio" is no group's prefix, but it is whole words of two catalogs' names: it lists them, as catalogs
    const twilio = all.filter((d) => d.name.startsWith('twilio-'));
    expect(domainMap(twilio, 'twilio', { catalogs: true }).groups?.map((g) => g.prefix)).toEqual(['twilio-chat', 'twilio-video']);
  });

  test('the prefixes offered for "did you mean" are catalogs and words within one, never part of a catalog name', () => {
    const names = ['twilio-chat.channels', 'twilio-chat.channels-members', 'twilio-video.rooms', 'twilio-video.rooms-x'];
    expect(groupPrefixes(names, { catalogs: true })).toEqual(['twilio-chat', 'twilio-chat.channels', 'twilio-video', 'twilio-video.rooms']);
  });
});

/** A spec with one GET per tag (every tag is a domain). */
function specWithTags(title: string, tags: readonly string[]): object {
  const paths: Record<string, unknown> = {};
  for (const tag of tags) {
    paths[`/${tag.replace(/-/g, '/')}`] = { get: { operationId: `list_${tag.replace(/-/g, '_')}`, summary: `List ${tag.replace(/-/g, ' ')}`, tags: [tag], responses: { 200: { description: 'ok' } } } };
  }
  return { openapi: '3.0.3', info: { title, version: '1' }, servers: [{ url: 'https://api.example.com' }], paths };
}

type Map = { catalogs: Array<{ name: string }>; totalDomains: number; domains: Array<{ name: string }>; groups?: Array<{ prefix: string; domainCount: number; largest?: string[] }> };

// a third catalog beside them, so that the two twilio ones are not the whole map (the old folding looked through a
// level that was one group, and two catalogs alone hid the split)
describe('list_domains of catalogs named twilio-chat and twilio-video (and ec2), served by the built CLI', () => {
  let client: Client;
  let dirs: string[];
  beforeAll(async () => {
    const root = tempDir('domain-map-catalogs-');
    const catalogs: Array<[string, string[]]> = [
      ['twilio-chat', Array.from({ length: 60 }, (_, i) => `channels-kind${pad(i)}`)],
      ['twilio-video', Array.from({ length: 55 }, (_, i) => `rooms-kind${pad(i)}`)],
      ['ec2', ['instances', 'volumes']],
    ];
    dirs = [];
    for (const [name, tags] of catalogs) {
      const spec = join(root, `${name}.json`);
      writeFileSync(spec, JSON.stringify(specWithTags(name, tags)));
      writeRegistry(await importSpec(spec, { name }), root);
      dirs.push(join(root, name));
    }
    client = (await connectTracedServe(dirs.flatMap((d) => ['--registry', d]))).client;
  }, 120_000);
  afterAll(async () => {
    await client?.close();
  });

  test('each catalog is its own group, by its whole name, and its largest members are its own', async () => {
    const r = await call(client, 'list_domains', {});
    expect(r.success, JSON.stringify(r.error)).toBe(true);
    const value = r.value as Map;
    expect(value.catalogs.map((c) => c.name)).toEqual(['twilio-chat', 'twilio-video', 'ec2']);
    expect(value.totalDomains).toBe(117);
    expect(value.domains).toEqual([]);
    expect(value.groups?.map((g) => [g.prefix, g.domainCount])).toEqual([['ec2', 2], ['twilio-chat', 60], ['twilio-video', 55]]);
    for (const g of value.groups ?? []) for (const d of g.largest ?? []) expect(d.startsWith(`${g.prefix}.`), d).toBe(true);
  });

  test("a group's prefix lists that catalog's domains, all of them; a near miss is offered the catalog's name", async () => {
    const video = await call(client, 'list_domains', { prefix: 'twilio-video' });
    expect(video.success, JSON.stringify(video.error)).toBe(true);
    expect((video.value as Map).domains.map((d) => d.name)).toEqual(loadCatalogSet(dirs).domainNames.filter((n) => n.startsWith('twilio-video.')));
    const miss = await call(client, 'list_domains', { prefix: 'twilio-vide' });
    expect(miss.error?.code).toBe('INVALID_ARGUMENTS');
    expect(miss.error?.details.suggestions[0]).toBe('twilio-video');
    // words of catalogs' names are no group, but they are whole words of their names: the catalogs they begin
    const twilio = await call(client, 'list_domains', { prefix: 'twilio' });
    expect((twilio.value as Map).groups?.map((g) => g.prefix)).toEqual(['twilio-chat', 'twilio-video']);
  });
});
