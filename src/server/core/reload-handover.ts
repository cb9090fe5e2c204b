// Between two versions of the served catalogs (reload.ts): what a new version takes from the one serving (the
// operations files it had parsed, parsed again before the swap so a broken one refuses the reload) and what the
// one serving is told when the new one is refused (its unservable files then answer why, not "retry").
import { resolve } from 'node:path';
import type { CatalogSet } from './catalogs.js';
import type { RegistryRefusal } from './reload.js';

/**
 * Tells the version serving that the registry now on disk was refused (with `failed` named, only those registries): a
 * file it found changed and cannot serve is then refused with the reason (REGISTRY_INVALID), not "retry in a few seconds".
 */
export function refusedToServing(serving: CatalogSet, reason: string, failed: readonly RegistryRefusal[]): void {
  for (const c of serving.catalogs ?? []) {
    const own = failed.find((f) => resolve(f.dir) === resolve(c.dir));
    if (failed.length > 0 && own === undefined) continue;
    c.reloadRefused?.(own?.reason ?? reason);
  }
}

/** Parses in `next` the operations files `previous` had parsed (by catalog name); throws for a broken one. */
export function warmDomains(previous: CatalogSet, next: CatalogSet): void {
  const hot = new Map(previous.catalogs.map((c) => [c.meta.name, c.parsedFiles?.() ?? []]));
  for (const c of next.catalogs) {
    for (const file of hot.get(c.meta.name) ?? []) c.operationsInDomain?.(file.replace(/\.json$/, ''));
  }
}
