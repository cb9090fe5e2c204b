// Serve-time filters for one deployment (`serve --include-domains/--exclude-domains/--exclude-tools`): narrows the
// loaded catalogs before they are merged, so a filtered operation is absent everywhere (list, search, describe,
// execute, "did you mean"). Names are the public ones agents see. Reads no files and no environment.
import { createRequire } from 'node:module';
import type picomatchType from 'picomatch';
import { AppError } from '../../errors.js';
import type { Catalog } from '../../registry/catalog.js';
import { suggestNames } from '../../registry/suggest.js';
import type { DomainInfo, Operation } from '../../types.js';

export interface CatalogFilters {
  /** Keep only these domains (public names, e.g. `issues`, or `github.issues` with several catalogs). */
  includeDomains?: readonly string[];
  /** Drop these domains. */
  excludeDomains?: readonly string[];
  /** Drop operations whose name or operationId matches one of these globs (picomatch), e.g. `repos_delete*`. */
  excludeTools?: readonly string[];
}

/** True when the filters would change anything. */
export function hasFilters(filters: CatalogFilters | undefined): filters is CatalogFilters {
  return (filters?.includeDomains?.length ?? 0) + (filters?.excludeDomains?.length ?? 0) + (filters?.excludeTools?.length ?? 0) > 0;
}

function checkDomains(flag: string, wanted: readonly string[], known: readonly string[]): void {
  for (const d of wanted) {
    if (known.includes(d)) continue;
    const close = suggestNames(d, known);
    throw new AppError(
      'CONFIG_INVALID',
      `serve: ${flag}: no domain named ${JSON.stringify(d.slice(0, 100))}` +
        (close.length > 0 ? `; did you mean ${close.map((c) => JSON.stringify(c)).join(' or ')}?` : '') +
        ' (`api-catalog domains` lists them)',
      { details: { flag, domain: d, suggestions: close } },
    );
  }
}

/**
 * Applies the filters to catalogs about to be merged (`multi`: names and domains get the `<catalog>.` prefix).
 * Returns copies whose operations, byName, meta.domains (recounted, empty ones dropped) and meta.operationCount
 * hold only what is kept; `filteredOut` counts the rest. Throws CONFIG_INVALID for an unknown domain (with "did
 * you mean"), a glob that matches no operation, or filters that leave nothing to serve.
 */
export function filterCatalogs(catalogs: readonly Catalog[], filters: CatalogFilters, multi: boolean): Catalog[] {
  const prefix = (c: Catalog): string => (multi ? `${c.meta.name}.` : '');
  const known = catalogs.flatMap((c) => c.meta.domains.map((d) => prefix(c) + d.name)).sort();
  const include = [...new Set(filters.includeDomains ?? [])];
  const exclude = new Set(filters.excludeDomains ?? []);
  checkDomains('--include-domains', include, known);
  checkDomains('--exclude-domains', [...exclude], known);
  // picomatch only when there are globs: a start without --exclude-tools does not load it
  const picomatch = filters.excludeTools?.length ? (createRequire(import.meta.url)('picomatch') as typeof picomatchType) : undefined;
  const globs = [...new Set(filters.excludeTools ?? [])].map((glob) => ({ glob, test: (picomatch as typeof picomatchType)(glob), hits: 0 }));
  const excludedTool = (op: Operation, c: Catalog): boolean => {
    let out = false;
    for (const g of globs) {
      if (g.test(prefix(c) + op.name) || g.test(op.name) || g.test(op.operationId)) {
        g.hits++;
        out = true;
      }
    }
    return out;
  };
  const filtered = catalogs.map((c): Catalog => {
    const keep = (op: Operation): boolean => {
      const domain = prefix(c) + op.domain;
      const byTool = excludedTool(op, c); // evaluated for every operation, so a glob's hits count everywhere
      return !byTool && !exclude.has(domain) && (include.length === 0 || include.includes(domain));
    };
    const operations = c.operations.filter(keep);
    const counts = new Map<string, number>();
    for (const op of operations) counts.set(op.domain, (counts.get(op.domain) ?? 0) + 1);
    const domains: DomainInfo[] = c.meta.domains.filter((d) => counts.has(d.name)).map((d) => ({ ...d, toolCount: counts.get(d.name) as number }));
    // (a domain's own file would hold what the filters dropped: the copy has no operationsInDomain)
    const { operationsInDomain: _unfiltered, ...rest } = c;
    return {
      ...rest,
      meta: { ...c.meta, domains, operationCount: operations.length },
      operations,
      byName: new Map(operations.map((op) => [op.name, op])),
      filteredOut: (c.filteredOut ?? 0) + c.operations.length - operations.length,
    };
  });
  for (const g of globs) {
    if (g.hits > 0) continue;
    const sample = catalogs[0]?.operations[0];
    throw new AppError(
      'CONFIG_INVALID',
      `serve: --exclude-tools ${JSON.stringify(g.glob.slice(0, 100))} matches no operation` +
        (sample ? ` (globs match names like ${JSON.stringify(prefix(catalogs[0] as Catalog) + sample.name)} and operationIds like ${JSON.stringify(sample.operationId)})` : '') +
        '; fix the pattern or drop it',
      { details: { flag: '--exclude-tools', glob: g.glob } },
    );
  }
  if (filtered.every((c) => c.operations.length === 0)) {
    throw new AppError('CONFIG_INVALID', 'serve: --include-domains/--exclude-domains/--exclude-tools leave no operation to serve; loosen them');
  }
  return filtered;
}
