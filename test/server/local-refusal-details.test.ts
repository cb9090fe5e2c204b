// A refusal made before anything is sent (here: a credential bound for plain http) is the server's own: its details
// sit at the top of error.details, like every other refusal's, and details.upstream stays for what an upstream said.
// Through a real SDK client of each era; nothing listens at the refused address, and nothing is sent to it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { loadCatalogSet, type CatalogSet } from '../../src/server/core/catalogs.js';
import { describeWithHandles } from '../helpers/describe-handles.js';
import { ERAS, call, connectInMemory, type Era } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

const SPEC = `openapi: 3.0.3
info: {title: Keyed, version: "1"}
servers: [{url: "https://keyed.invalid/v1"}]
components:
  securitySchemes:
    key: {type: apiKey, in: header, name: X-Key}
security: [{key: []}]
paths:
  /things:
    get:
      operationId: listThings
      summary: List things
      responses: {"200": {description: OK}}
`;

let set: CatalogSet;
beforeAll(async () => {
  const dir = tempDir('ac-local-refusal-');
  writeFileSync(join(dir, 'keyed.yaml'), SPEC);
  writeRegistry(await importSpec(join(dir, 'keyed.yaml'), { name: 'keyed' }), join(dir, 'reg'));
  set = loadCatalogSet([join(dir, 'reg', 'keyed')]);
});

describe.each(ERAS)('%s era', (era: Era) => {
  test('a credential refused for plain http: flag and config key in details, nothing under upstream', async () => {
    const settings = { baseUrls: { keyed: 'http://keyed.invalid/v1' }, readOnly: false, env: { KEYED_API_KEY: 'k-0123456789abcdef' } };
    const c = await connectInMemory({ catalogs: set, settings }, { era });
    try {
      const handle = (await describeWithHandles(c.client, ['listThings'])).handles.listThings;
      const refused = await call(c.client, 'execute_tool', { tool_name: 'listThings', args: {}, handle });
      expect(refused.error?.code).toBe('UNSAFE_REQUEST');
      expect(refused.error?.details).toEqual({ origin: 'http://keyed.invalid', configKey: 'catalogs.keyed.allowHttpCredentials', flag: '--allow-http-credentials' });
    } finally {
      await c.close();
    }
  });
});
