// A `fields` projection that matched nothing, as an agent gets it through a real SDK client of each era: the data
// as projected, a `warnings` entry beside it, and an instruction that points to it (agent audit item 5). The
// warning's wording is tested in fields-warning.test.ts.
import { describe, expect, test } from 'vitest';
import { ERAS, call, catalogs, connectInMemory, fixtureRegistry, type Era } from '../helpers/mcp.js';
import { describeWithHandles } from '../helpers/describe-handles.js';
import { upstreamPerFile } from '../helpers/upstream-per-file.js';

const fixture = upstreamPerFile();
const { open } = fixture;

describe.each(ERAS)('%s era', (era: Era) => {
  test('execute_tool: fields matching nothing succeed with the projected data, a warning and an instruction', async () => {
    const c = await connectInMemory({ catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: { petstore: fixture.up.url }, readOnly: false, env: {} } }, { era });
    open.push(c);
    fixture.up.route('/pets', { kind: 'status', status: 200, body: { method: 'GET', headers: { host: 'x' } } });
    try {
      const handle = (await describeWithHandles(c.client, ['pets.list'])).handles['pets.list'];
      const none = await call(c.client, 'execute_tool', { tool_name: 'pets.list', args: {}, fields: ['methd', 'headerz.host'], handle });
      expect(none.success).toBe(true);
      expect(none.value.data).toEqual({});
      expect(none.value.warnings).toHaveLength(1);
      expect(none.value.warnings[0]).toMatch(/"methd" \(no "methd" at the top level\).*top-level fields are: method, headers/);
      expect(none.instruction).toMatch(/matched nothing in this response \(see warnings\)/);
      const jmes = await call(c.client, 'execute_tool', { tool_name: 'pets.list', args: {}, fields: 'methd', handle });
      expect(jmes.value.data).toBeNull();
      expect(jmes.value.warnings[0]).toMatch(/"methd" is not a field anywhere in this response/);
      const fine = await call(c.client, 'execute_tool', { tool_name: 'pets.list', args: {}, fields: ['method'], handle });
      expect(fine.value).not.toHaveProperty('warnings');
      expect(fine.instruction).toBeUndefined();
    } finally {
      fixture.up.route('/pets', { kind: 'echo' });
    }
  });
});
