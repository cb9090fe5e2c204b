// Level 2's credential line without the operator's advice (outside audit "agentux", defect 7). Before: every Level 2
// of an API whose key is the whole Authorization header value repeated "…include the scheme word the API expects (e.g.
// "Bearer <key>"), or set catalogs.<name>.credentialPrefix (e.g. "Bearer ") in the config file to add it" for each
// operation (about 50 tokens each, 300 of a 999-token answer on five SoundCloud operations), and the securityScheme's
// own description (SoundCloud's "OAuth ACCESS_TOKEN") appeared nowhere. Now Level 2 says "the whole Authorization
// header value, sent as is"; Level 3 keeps the whole format and quotes the scheme's description as `api_text`.
// Real parts: a spec imported by the importer, real MCP SDK clients.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { loadCatalogSet, type CatalogSet } from '../../src/server/core/catalogs.js';
import type { ExecutionSettings } from '../../src/server/core/settings.js';
import { call, connectInMemory, ERAS, type Connected } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

const DESCRIPTION = 'The string "OAuth" followed by the user\'s token: OAuth ACCESS_TOKEN';

const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Sound', version: '1' },
  servers: [{ url: 'https://sound.invalid/v1' }],
  components: { securitySchemes: { AuthHeader: { type: 'apiKey', in: 'header', name: 'Authorization', description: DESCRIPTION } } },
  security: [{ AuthHeader: [] }],
  paths: Object.fromEntries(
    ['tracks', 'playlists', 'likes'].map((thing) => [
      `/${thing}`,
      { get: { operationId: `list_${thing}`, summary: `List ${thing}`, responses: { '200': { description: 'OK' } } } },
    ]),
  ),
};

let set: CatalogSet;
const open: Connected[] = [];
beforeAll(async () => {
  const dir = tempDir('ac-describe-cred-words-');
  writeFileSync(join(dir, 'sound.json'), JSON.stringify(SPEC));
  writeRegistry(await importSpec(join(dir, 'sound.json'), { name: 'sound' }), join(dir, 'reg'));
  set = loadCatalogSet([join(dir, 'reg', 'sound')]);
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

async function connect(era: (typeof ERAS)[number], settings?: Partial<ExecutionSettings>): Promise<Connected> {
  const c = await connectInMemory({ catalogs: set, settings: { baseUrls: {}, readOnly: false, env: {}, ...settings } }, { era });
  open.push(c);
  return c;
}

describe.each(ERAS)('%s era', (era) => {
  test('Level 2: the short form on each operation, no config-file advice anywhere in the answer', async () => {
    const c = await connect(era);
    const r = await call(c.client, 'describe_tools', { tool_names: ['list_tracks', 'list_playlists', 'list_likes'] });
    for (const t of r.value.tools) expect(t.credentials).toBe('SOUND_API_KEY (not set): the whole Authorization header value, sent as is');
    const text = JSON.stringify(r);
    expect(text).not.toContain('credentialPrefix');
    expect(text).not.toContain('config file');
  });

  test("Level 3: the whole format once per scheme, and the scheme's own description quoted as api_text", async () => {
    const c = await connect(era);
    const r = await call(c.client, 'describe_tools', { tool_names: ['list_tracks'], detail: 'full' });
    const [cred] = r.value.tools[0].credentials;
    expect(cred).toMatchObject({ scheme: 'AuthHeader', envVars: ['SOUND_API_KEY'], set: false, api_text: DESCRIPTION });
    expect(cred.format).toMatch(/whole Authorization header value.*catalogs\.sound\.credentialPrefix/);
    expect(cred.optional).toBeUndefined();
  });

  test('a configured prefix: Level 2 says how the value is sent, without the config key', async () => {
    const c = await connect(era, { catalogs: { sound: { credentialPrefix: 'OAuth ' } } });
    const r = await call(c.client, 'describe_tools', { tool_names: ['list_tracks'] });
    expect(r.value.tools[0].credentials).toBe('SOUND_API_KEY (not set): the key alone; sent as header "Authorization" with the value "OAuth <value>"');
    const full = await call(c.client, 'describe_tools', { tool_names: ['list_tracks'], detail: 'full' });
    expect(full.value.tools[0].credentials[0].format).toContain('(catalogs.sound.credentialPrefix)');
  });
});
