// `serve`'s registry hot reload wiring: the served catalogs become a LiveCatalogs (src/server/core/reload.ts) that
// every tool call reads, reloaded on SIGHUP and, unless --no-watch, when a registry's catalog.json changes.
import { resolve } from 'node:path';
import type { Logger } from '../logger.js';
import { defaultCatalogDir } from '../registry/catalog.js';
import type { ServerDeps } from '../server/create-server.js';
import { LiveCatalogs, type ServedCatalogs } from '../server/core/reload.js';

export interface ReloadWiring {
  /** The registry folders served (empty: the embedded catalog). */
  registries: readonly string[];
  /** Watch their catalog.json (`--no-watch` turns it off). */
  watch: boolean;
  /** Builds a fresh version from disk (the same loading, filters, settings and embeddings as at start). */
  load: (onChanged: (dir: string) => void) => Promise<ServedCatalogs>;
  logger: Logger;
}

/** Makes `deps` answer from a swappable version; SIGHUP reloads it. Returns it (close() it at shutdown). */
export function startReloading(deps: ServerDeps, wiring: ReloadWiring): LiveCatalogs {
  const live = new LiveCatalogs({ catalogs: deps.catalogs, settings: deps.settings }, { load: wiring.load, logger: wiring.logger });
  deps.live = live;
  process.on('SIGHUP', () => {
    wiring.logger.log('info', { event: 'reload_requested', signal: 'SIGHUP' });
    void live.reload('signal');
  });
  if (wiring.watch) live.watch((wiring.registries.length > 0 ? wiring.registries : [defaultCatalogDir()]).map((d) => resolve(d)));
  return live;
}
