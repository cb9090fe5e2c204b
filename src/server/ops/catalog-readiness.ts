// The `catalogs` readiness check: the search index is usable, and what the version serving cannot serve. A registry
// file changed on disk (REGISTRY_STALE: a reload follows) makes the replica unready, as does any file it cannot
// serve when it serves one catalog. With several catalogs, one refused for good (REGISTRY_INVALID: a damaged file,
// or a registry a reload refused and could not keep, served without its tools) leaves the replica ready but
// degraded: it serves the others whole, no other replica reading the same registry can serve the refused one
// better, and taking every such replica out would stop all the catalogs for one. /readyz names each such catalog and
// why (`degraded`, `unservedCatalogs`), and so does /metrics (docs/DEPLOY.md, Readiness with several catalogs).
import type { CatalogSet } from '../core/catalogs.js';
import type { RegistryRefusal } from '../core/reload.js';
import type { ReadinessCheck } from './readiness.js';

/** A catalog of the version serving that is not served whole, for /readyz and /metrics. */
export interface UnservedCatalog {
  catalog: string;
  /** `none`: served without its tools (a reload refused it and could not keep it); `partly`: some domains fail. */
  served: 'none' | 'partly';
  code: string;
  reason: string;
}

/** The registries a set serves as unavailable (no tools), by the set: told by the reload that built it. */
const unavailable = new WeakMap<CatalogSet, readonly RegistryRefusal[]>();

/** Notes that `set` serves these registries as unavailable (serve-reload.ts, when a reload builds such a set). */
export function noteUnavailable(set: CatalogSet, refusals: readonly RegistryRefusal[]): void {
  unavailable.set(set, refusals);
}

const cut = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n)}…` : s);

/** The catalogs readiness check over the version serving, and the facts its last run found for the body. */
export function catalogsReadiness(catalogs: () => CatalogSet): { check: ReadinessCheck; info: () => Record<string, unknown> } {
  let last: UnservedCatalog[] = [];
  const check: ReadinessCheck = {
    name: 'catalogs',
    check: () => {
      last = [];
      let set: CatalogSet;
      try {
        set = catalogs();
        void set.index;
      } catch (err) {
        return `catalogs: the search index is not usable (${err instanceof Error ? err.message.slice(0, 200) : 'error'})`;
      }
      const several = set.catalogs.length > 1;
      // A registry file the version serving found it cannot serve (changed on disk, damaged, unreadable): its domain
      // fails on this replica. Until a reload is refused for good (REGISTRY_STALE) a new version is coming, and with one
      // catalog any such file leaves the replica not whole: unready, naming the file.
      const pending: string[] = [];
      const unserved: UnservedCatalog[] = (unavailable.get(set) ?? []).map((r) => ({ catalog: r.catalog, served: 'none', code: r.code ?? 'REGISTRY_INVALID', reason: cut(r.reason, 600) }));
      for (const c of set.catalogs) {
        const files = c.unservable?.() ?? [];
        const refused = several ? files.filter((f) => f.code === 'REGISTRY_INVALID') : [];
        pending.push(...files.filter((f) => !refused.includes(f)).map((f) => f.reason));
        if (refused.length > 0) unserved.push({ catalog: c.meta.name, served: 'partly', code: 'REGISTRY_INVALID', reason: refused.map((f) => cut(f.reason, 600)).join('; ') });
      }
      last = unserved;
      if (pending.length > 0) {
        const shown = pending.slice(0, 3).map((r) => r.slice(0, 600));
        return `catalogs: ${pending.length === 1 ? 'a registry file' : `${pending.length} registry files`} cannot be served: ${shown.join('; ')}${pending.length > 3 ? `; and ${pending.length - 3} more` : ''}`;
      }
      if (unserved.length === 0) return undefined;
      const names = new Set(unserved.map((u) => u.catalog));
      const said = unserved.slice(0, 3).map((u) => `catalog ${u.catalog} ${u.served === 'none' ? 'is not served' : 'is served without part of it'}: ${u.reason}`);
      const more = unserved.length > 3 ? `; and ${unserved.length - 3} more` : '';
      // no catalog left whole: this replica serves nothing as it should
      if (names.size >= set.catalogs.length) return `catalogs: no catalog is served whole: ${said.join('; ')}${more}`;
      return { degraded: `catalogs: ${names.size} of ${set.catalogs.length} catalogs not served whole (the others are): ${said.join('; ')}${more}` };
    },
  };
  return { check, info: () => (last.length > 0 ? { unservedCatalogs: last } : {}) };
}
