// Builds minimal but complete Operation objects for search tests (the index reads only a few fields), and measures
// how much of an input the search reads (longestInputSeen: the clock-free bound behind K1).
import { SearchIndex } from '../../src/search/index.js';
import type { DomainInfo, HttpMethod, Operation } from '../../src/types.js';
import { vi } from 'vitest';

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

/**
 * The longest string any text-processing method (String.prototype's case, split, replace, search and character
 * methods; RegExp exec/test) was applied to while `fn` ran: a clock-free measure of how much of an input is read.
 * `slice` and `trim` are left out: they are how the input is cut to its prefix.
 */
export function longestInputSeen(fn: () => void): number {
  const methods = ['toLowerCase', 'toUpperCase', 'normalize', 'split', 'replace', 'replaceAll', 'match', 'matchAll', 'includes', 'indexOf', 'charCodeAt', 'codePointAt', 'localeCompare'] as const;
  const spies = methods.map((m) => vi.spyOn(String.prototype as unknown as Record<string, (...a: unknown[]) => unknown>, m));
  const regex = [vi.spyOn(RegExp.prototype, 'exec'), vi.spyOn(RegExp.prototype, 'test')];
  try {
    fn();
    return Math.max(
      0,
      ...spies.flatMap((s) => s.mock.contexts.map((x) => String(x).length)),
      ...regex.flatMap((s) => s.mock.calls.map((a) => String(a[0]).length)),
    );
  } finally {
    for (const s of [...spies, ...regex]) s.mockRestore();
  }
}

/**
 * 10 nouns x 4 scopes x 5 verbs x 4 variants = 800 look-alike operations: "list", "get" and every noun match hundreds
 * of them (the ranker's bounded lists, pages and pruning at scale).
 */
export function lookalikeOperations(): Operation[] {
  const nouns = ['issue', 'label', 'webhook', 'customer', 'invoice', 'branch', 'team', 'secret', 'job', 'runner'];
  const scopes = ['repos/{owner}/{repo}', 'orgs/{org}', 'enterprises/{enterprise}', 'user'];
  const verbs: Array<['get' | 'post' | 'delete' | 'patch', string, boolean]> = [
    ['get', 'List', false], ['get', 'Get', true], ['post', 'Create', false], ['patch', 'Update', true], ['delete', 'Delete', true],
  ];
  return nouns.flatMap((noun, a) => scopes.flatMap((scope, b) => verbs.flatMap(([method, verb, item], c) =>
    [0, 1, 2, 3].map((v) => op({
      name: `${noun}s_${verb.toLowerCase()}-${b}-${v}`,
      domain: `${noun}s`,
      method,
      path: `/${scope}/${noun}s${v > 0 ? `/v${v}` : ''}${item ? `/{${noun}_id}` : ''}`,
      summary: `${verb} ${item ? `a ${noun}` : `${noun}s`}${v === 3 ? ' (legacy)' : ''}`,
      description: `${verb} ${noun} ${nouns[(a + c + v) % nouns.length]} for the ${scope.split('/')[0]}`,
      deprecated: v === 3,
    })))));
}
