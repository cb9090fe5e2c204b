// list_domains: the map of the catalog(s) — domains with tool counts and one-line descriptions.
import { suggestNames } from '../../registry/catalog.js';
import type { CatalogSet } from './catalogs.js';
import { fail, ok, type Envelope } from './envelope.js';
import { parseMetaArgs } from './meta-args.js';
import type { ToolNames } from './names.js';
import { oneLine } from './text.js';

export interface ListDomainsInput {
  catalog?: string;
}

/** Domains in name order (deterministic, K4); `catalog` narrows to one loaded catalog. */
export function listDomains(set: CatalogSet, input: unknown, names: ToolNames): Envelope {
  const tool = names.listDomains;
  const parsed = parseMetaArgs<ListDomainsInput>(input, { catalog: { kind: 'string', max: 200 } });
  if (!parsed.ok) {
    return fail(tool, 'INVALID_ARGUMENTS', 'list_domains: invalid arguments', `Call ${tool} with {} or {"catalog": "<name>"}.`, {
      errors: parsed.errors,
    });
  }
  const catalogNames = set.catalogs.map((c) => c.meta.name);
  const wanted = parsed.value.catalog;
  if (wanted !== undefined && !catalogNames.includes(wanted)) {
    return fail(
      tool,
      'INVALID_ARGUMENTS',
      `list_domains: no catalog named ${JSON.stringify(wanted)}; loaded: ${catalogNames.join(', ')}`,
      `Call ${tool} again with one of the loaded catalogs, or without "catalog".`,
      { errors: [{ path: '/catalog', message: 'unknown catalog', expected: catalogNames }], suggestions: suggestNames(wanted, catalogNames) },
    );
  }
  const domains = set.domains.filter((d) => wanted === undefined || d.catalog === wanted);
  const value: Record<string, unknown> = {
    totalDomains: domains.length,
    totalTools: domains.reduce((n, d) => n + d.toolCount, 0),
    domains: domains.map((d) => ({ name: d.name, toolCount: d.toolCount, description: oneLine(d.description, 160) })),
  };
  if (set.catalogs.length > 1) {
    value.catalogs = set.catalogs.map((c) => ({ name: c.meta.name, title: oneLine(c.meta.title, 80), toolCount: c.operations.length }));
  }
  return ok(tool, value, `Call ${names.searchTools} with a query (and optionally a domain) to find operations.`);
}
