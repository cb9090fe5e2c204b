// search_tools: ranked names with one-line summaries (never schemas), a browse mode for one domain, and
// suggestions when nothing matches. Bounded input (K1): long queries are cut, limits capped.
import { suggestNames } from '../../registry/catalog.js';
import type { CatalogSet } from './catalogs.js';
import { fail, ok, type Envelope } from './envelope.js';
import { parseMetaArgs } from './meta-args.js';
import { LIMITS, type ToolNames } from './names.js';
import { oneLine } from './text.js';

export interface SearchToolsInput {
  query?: string;
  domain?: string;
  limit?: number;
  offset?: number;
}

/** What one answered search found (for the search log): the cut query, the domain, the results shown. */
export interface SearchObservation {
  query: string;
  domain?: string;
  total: number;
  results: Array<{ name: string; score: number }>;
}

/**
 * search_tools. With `domain` and no query it lists that domain in stable (name) order, paged. `observe`, when
 * given, sees every search that was answered (not refusals of invalid input).
 */
export async function searchTools(
  set: CatalogSet,
  input: unknown,
  names: ToolNames,
  observe?: (o: SearchObservation) => void,
): Promise<Envelope> {
  const tool = names.searchTools;
  const parsed = parseMetaArgs<SearchToolsInput>(input, {
    // Long queries are cut to queryMaxChars below rather than rejected (K1).
    query: { kind: 'string' },
    domain: { kind: 'string', max: LIMITS.nameMaxChars },
    limit: { kind: 'integer', min: 1, max: LIMITS.searchMax },
    offset: { kind: 'integer', min: 0, max: LIMITS.offsetMax },
  });
  if (!parsed.ok) {
    return fail(tool, 'INVALID_ARGUMENTS', 'search_tools: invalid arguments', `Fix the listed fields and call ${tool} again.`, {
      errors: parsed.errors,
    });
  }
  const { domain, limit = LIMITS.searchDefault, offset = 0 } = parsed.value;
  const query = (parsed.value.query ?? '').slice(0, LIMITS.queryMaxChars).trim();
  if (domain !== undefined && !set.domainNames.includes(domain)) {
    const close = suggestNames(domain, set.domainNames);
    return fail(
      tool,
      'UNKNOWN_DOMAIN',
      `search_tools: no domain named ${JSON.stringify(domain)}`,
      close.length > 0
        ? `Call ${tool} again with domain ${JSON.stringify(close[0])}, or call ${names.listDomains} to see all domains.`
        : `Call ${names.listDomains} to see the domains, then call ${tool} again.`,
      { suggestions: close },
    );
  }
  if (query === '' && domain === undefined) {
    return fail(
      tool,
      'INVALID_ARGUMENTS',
      'search_tools: give a query, a domain, or both',
      `Call ${tool} with {"query": "<what you want to do>"}, or call ${names.listDomains} first.`,
      { errors: [{ path: '/query', message: 'query or domain is required' }] },
    );
  }
  const options: { domain?: string; limit: number; offset: number } = { limit, offset };
  if (domain !== undefined) options.domain = domain;
  // With an embeddings endpoint: hybrid ranking, or the lexical one with the reason (never a failure).
  const found = set.embeddings !== undefined && query !== '' ? await set.embeddings.search(set.index, query, options) : set.index.search(query, options);
  const results = found.results.map((r) => ({
    name: r.name,
    domain: r.domain,
    summary: oneLine(r.summary, 120),
    requiredParams: r.requiredParams,
    score: Math.round(r.score * 1000) / 1000,
  }));
  const value: Record<string, unknown> = { results, total: found.total };
  if ('mode' in found) value.mode = found.mode;
  observe?.({ query, ...(domain !== undefined ? { domain } : {}), total: found.total, results: results.map((r) => ({ name: r.name, score: r.score })) });
  if (results.length === 0) {
    // SearchIndex.suggest decides (names for a one-word query, corrected words for a phrase).
    value.suggestions = query === '' ? { domains: [], didYouMean: [] } : set.index.suggest(query);
    value.hint =
      offset > 0 && found.total > 0
        ? `No results at offset ${offset}; there are ${found.total} in all. Use a smaller offset.`
        : `No operation matched. Try other words (API terms like "create", "list", a resource name), one of the suggested domains, or ${names.listDomains}.`;
    return ok(tool, value, `Rephrase the query or browse a suggested domain with ${tool}.`);
  }
  const top = results.slice(0, 3).map((r) => r.name);
  const more = offset + results.length < found.total ? ` More results: call ${tool} again with offset ${offset + results.length}.` : '';
  value.hint = `Call ${names.describeTools} with {"tool_names": ${JSON.stringify(top)}} to learn how to call them.${more}`;
  return ok(tool, value, `Pick the operation that fits and call ${names.describeTools} with its name before executing it.`);
}
