// Builds minimal but complete Operation objects for search tests (the index reads only a few fields).
import { SearchIndex } from '../../src/search/index.js';
import type { DomainInfo, HttpMethod, Operation } from '../../src/types.js';

export function op(
  fields: Partial<Operation> & { name: string; path: string; method?: HttpMethod },
  required: string[] = [],
): Operation {
  const method = fields.method ?? 'get';
  return {
    operationId: fields.name,
    domain: 'misc',
    summary: '',
    description: '',
    tags: [],
    deprecated: false,
    destructive: method === 'delete',
    readOnly: method === 'get',
    servers: [],
    security: [],
    inputSchema: { type: 'object', properties: Object.fromEntries(required.map((r) => [r, { type: 'string' }])), required },
    bindings: [],
    errors: [],
    examples: [],
    executable: true,
    ...fields,
    method,
  };
}

export function domainsOf(ops: readonly Operation[]): DomainInfo[] {
  const counts = new Map<string, number>();
  for (const o of ops) counts.set(o.domain, (counts.get(o.domain) ?? 0) + 1);
  return [...counts].sort().map(([name, toolCount]) => ({ name, description: `Operations on ${name}`, toolCount }));
}

/** How a search over these operations reads a query: its words after phrases, readings and typo corrections. */
export function readAs(ops: readonly Operation[]): (query: string) => string | undefined {
  const index = SearchIndex.build(ops, domainsOf(ops));
  return (query) => index.search(query, { explain: true }).reading?.words;
}

/** A search over these operations that answers with the first hit's name. */
export function firstHit(ops: readonly Operation[]): (query: string) => string | undefined {
  const index = SearchIndex.build(ops, domainsOf(ops));
  return (query) => index.search(query).results[0]?.name;
}
