// RPC-style specs get a map by the resource their actions name (src/importer/domains.ts groupByAction): AWS's
// `/#X-Amz-Target=Svc.Op` specs used to give one domain for everything, path-per-action specs (kinesisvideo's
// `/createStream`) one domain per operation, ec2 594 `action-...` domains. Ordinary REST specs keep their map.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { actionNoun } from '../../src/importer/domains.js';
import { importSpec } from '../../src/importer/index.js';
import { tempDir } from '../helpers/temp.js';

const scratch = tempDir('action-domains-');
const ok = { '200': { description: 'OK' } };

/** Imports a spec of `paths` and returns its domains as `name:count`. */
async function domainsOf(name: string, paths: Record<string, unknown>): Promise<{ domains: string[]; said: string[] }> {
  const spec = join(scratch, `${name}.json`);
  writeFileSync(spec, JSON.stringify({ openapi: '3.0.3', info: { title: name, version: '1' }, servers: [{ url: 'https://api.example' }], paths }));
  const said: string[] = [];
  const result = await importSpec(spec, { onProgress: (m) => said.push(m) });
  return { domains: result.meta.domains.map((d) => `${d.name}:${d.toolCount}`), said };
}

const VIDEO_ACTIONS = [
  'CreateStream', 'DeleteStream', 'DescribeStream', 'ListStreams', 'UpdateStream', 'CreateSignalingChannel', 'DeleteSignalingChannel',
  'DescribeSignalingChannel', 'ListSignalingChannels', 'UpdateSignalingChannel', 'TagStream', 'UntagStream', 'ListTagsForStream',
  'DescribeImageGenerationConfiguration', 'UpdateImageGenerationConfiguration', 'GetDataEndpoint',
];

describe('actionNoun', () => {
  test.each([
    ['DeleteVpc', 'vpc'],
    ['DescribeVpcEndpoints', 'vpc-endpoint'],
    ['DescribeAddressesAttribute', 'address-attribute'],
    ['Lightsail_20161128.GetInstances', 'instance'],
    ['GET_DescribeVpcs', 'vpc'],
    ['BatchDeleteAttributes', 'attribute'],
    ['ListTagsForResource', 'tag'],
    ['TagResource', 'tag'],
    ['RemoveFromGlobalCluster', 'global-cluster'],
    ['DescribeImageGenerationConfiguration', 'image-generation-configuration'],
    ['GetMetricData', 'metric-data'],
    ['createStream', 'stream'],
    ['flickr.photos.getInfo', 'photo'],
    ['Search', 'search'],
    ['UserProfile', ''],
  ])('%s -> %s', (action, noun) => {
    expect(actionNoun(action)).toBe(noun);
  });

  test('with anyVerb, an unknown first word is taken for the verb', () => {
    expect(actionNoun('AdvertiseByoipCidr')).toBe('');
    expect(actionNoun('AdvertiseByoipCidr', true)).toBe('byoip-cidr');
  });
});

describe('import', () => {
  test('an X-Amz-Target spec, all on one path, gets one domain per resource instead of one for all', async () => {
    const paths: Record<string, unknown> = {};
    for (const a of VIDEO_ACTIONS) paths[`/#X-Amz-Target=KinesisVideo_20170930.${a}`] = { post: { operationId: a, summary: a, responses: ok } };
    const { domains, said } = await domainsOf('target', paths);
    expect(domains).toEqual(['data-endpoint:1', 'image-generation-configuration:2', 'signaling-channel:5', 'stream:5', 'tag:3']);
    expect(said.some((m) => m.includes('held 16 of 16 operations'))).toBe(true);
  });

  test('a spec with one path per action gets the same map instead of one domain per operation', async () => {
    const paths: Record<string, unknown> = {};
    for (const a of VIDEO_ACTIONS) paths[`/${a.charAt(0).toLowerCase()}${a.slice(1)}`] = { post: { operationId: a, summary: a, responses: ok } };
    expect((await domainsOf('per-action', paths)).domains).toEqual(['data-endpoint:1', 'image-generation-configuration:2', 'signaling-channel:5', 'stream:5', 'tag:3']);
  });

  test('REST specs keep their map: resources by path, tags as tagged, operationIds that name no action', async () => {
    const rest: Record<string, unknown> = {};
    for (const r of ['streams', 'channels', 'tags']) {
      rest[`/v1/${r}`] = { get: { operationId: `list_${r}`, responses: ok }, post: { operationId: `create_${r}`, responses: ok } };
      rest[`/v1/${r}/{id}`] = { get: { operationId: `get_${r}`, responses: ok }, delete: { operationId: `delete_${r}`, responses: ok } };
    }
    expect((await domainsOf('rest', rest)).domains).toEqual(['channels:4', 'streams:4', 'tags:4']);
    // one tag per operation is the spec author's map, however fine
    const tagged: Record<string, unknown> = {};
    for (const a of VIDEO_ACTIONS) tagged[`/${a}`] = { post: { operationId: a, tags: [a], responses: ok } };
    expect((await domainsOf('tagged', tagged)).domains).toHaveLength(VIDEO_ACTIONS.length);
    // one path per operation whose operationIds are no actions: nothing to group by
    const nouns: Record<string, unknown> = {};
    for (const n of ['Weather', 'Forecast', 'Alerts', 'Stations', 'Radar', 'Tides', 'Pollen', 'Ozone', 'Uv', 'Moon', 'Sun', 'Quakes']) nouns[`/${n}`] = { get: { operationId: n, responses: ok } };
    expect((await domainsOf('nouns', nouns)).domains).toHaveLength(12);
  });
});
