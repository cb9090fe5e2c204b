// search_tools reads at most LIMITS.queryMaxChars (500) characters of a query and cuts the rest rather than refusing
// it (K1). The input schema does not declare the cut (its tokens are measured), so the answer says so: an agent
// whose words fell past the cut learns why the results miss them. Through a real SDK client of each era.
import { afterEach, describe, expect, test } from 'vitest';
import { LIMITS } from '../../src/server/core/names.js';
import { ERAS, call, catalogs, connectInMemory, fixtureRegistry, type Connected, type Era } from '../helpers/mcp.js';

const open: Connected[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

describe.each(ERAS)('%s era', (era: Era) => {
  async function connect(): Promise<Connected> {
    const c = await connectInMemory({ catalogs: catalogs(fixtureRegistry('petstore')) }, { era });
    open.push(c);
    return c;
  }

  test('a query longer than 500 characters is searched cut, and the answer warns that it was shortened', async () => {
    const { client } = await connect();
    const words = 'create a pet';
    // the words the agent cares about sit past the cut: they are not searched
    const long = `${'x'.repeat(LIMITS.queryMaxChars - 5)} ${words}`;
    const r = await call(client, 'search_tools', { query: long, limit: 3 });
    expect(r.success, JSON.stringify(r)).toBe(true);
    expect(r.value.warning).toBe(
      'The query was shortened to its first 500 characters; words after that were not searched. ' +
        'Send a short "<action> <resource>" and put other words in keywords, then call search_tools again if these results miss.',
    );
  });

  test('a query within the limit (trailing blanks past it included) carries no warning', async () => {
    const { client } = await connect();
    const atLimit = `create a pet ${'y'.repeat(LIMITS.queryMaxChars - 'create a pet '.length)}`;
    expect(atLimit).toHaveLength(LIMITS.queryMaxChars);
    for (const query of ['create a pet', atLimit, `${atLimit}     `]) {
      const r = await call(client, 'search_tools', { query, limit: 3 });
      expect(r.success, JSON.stringify(r)).toBe(true);
      expect(r.value.warning, query.slice(0, 40)).toBeUndefined();
    }
  });

  test('the input schema still declares no maxLength for the query (the cut is said in the answer instead)', async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    const search = tools.find((t) => t.name === 'search_tools');
    const query = (search?.inputSchema.properties as Record<string, Record<string, unknown>>).query;
    expect(query?.type).toBe('string');
    expect(query?.maxLength).toBeUndefined();
  });
});
