// "Did you mean" as an agent meets it, through a real SDK client: an unknown domain in a multi-catalog set (where
// domains are `<catalog>.<domain>`) and an unknown tool name on GitHub. The ranking itself is tested in suggest.test.ts.
import { afterEach, describe, expect, test } from 'vitest';
import { defaultCatalogDir } from '../../src/registry/catalog.js';
import { ERAS, call, catalogs, connectInMemory, fixtureRegistry, type Connected, type Era } from '../helpers/mcp.js';

const open: Connected[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

describe.each(ERAS)('%s era', (era: Era) => {
  test('search_tools: a domain named without its catalog prefix suggests the prefixed domain first, and the instruction names it', async () => {
    const c = await connectInMemory({ catalogs: catalogs(fixtureRegistry('petstore'), fixtureRegistry('zoo')) }, { era });
    open.push(c);
    // petstore.store, not petstore.pets (whose catalog name holds "store"), nor a domain a few edits away
    const r = await call(c.client, 'search_tools', { query: 'inventory', domain: 'store' });
    expect(r.error?.code).toBe('UNKNOWN_DOMAIN');
    expect(r.error?.details.suggestions[0]).toBe('petstore.store');
    expect(r.instruction).toContain('domain "petstore.store"');
    const k = await call(c.client, 'search_tools', { query: 'keepers', domain: 'keeper' });
    expect(k.error?.details.suggestions[0]).toBe('zoo.keepers');
  });

  test('describe_tools on GitHub: "create-issue" suggests issues_create first', async () => {
    const c = await connectInMemory({ catalogs: catalogs(defaultCatalogDir()) }, { era });
    open.push(c);
    const r = await call(c.client, 'describe_tools', { tool_names: ['create-issue'] });
    expect(r.error?.code).toBe('UNKNOWN_TOOL');
    expect(JSON.stringify(r.error?.details)).toContain('issues_create');
    const suggestions = (r.error?.details.suggestions ?? r.error?.details.tools?.[0]?.error?.suggestions) as string[];
    expect(suggestions[0]).toBe('issues_create');
  }, 30_000);
});
