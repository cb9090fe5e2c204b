// `serve`'s catalogs beyond loading them: the embeddings endpoint attached to each version, and hot reload — the
// served catalogs become a LiveCatalogs (src/server/core/reload.ts) that every tool call reads, reloaded on SIGHUP
// and, unless --no-watch, when a registry's catalog.json changes.
import { resolve } from 'node:path';
import type { ServerConfig } from '../config.js';
import type { Logger } from '../logger.js';
import { attachEmbeddings, type CatalogSet } from '../server/core/catalogs.js';
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

/**
 * The embeddings endpoint (off by default): loaded only when configured; mismatched vectors warn (on stderr at
 * start, `print`; in the log on a reload) and search answers lexically.
 */
export async function useEmbeddings(set: CatalogSet, config: ServerConfig, logger: Logger, print: boolean): Promise<void> {
  if (config.embeddings === undefined && !process.env.API_CATALOG_EMBEDDINGS_URL) return;
  const { resolveEmbeddingsConfig } = await import('../embeddings/config.js');
  const embeddings = resolveEmbeddingsConfig(config.embeddings ?? {}, process.env);
  if (embeddings === undefined) return;
  const semantic = await attachEmbeddings(set, embeddings, { logger });
  if (!print) return;
  process.stderr.write(`api-catalog: search: ${semantic.describe()}\n`);
  for (const c of semantic.catalogs.filter((x) => !x.usable)) process.stderr.write(`api-catalog: warning: embeddings for ${c.catalog}: ${c.problem}\n`);
}

/** The served catalog version, computed now (logged); undefined when the registry cannot say (logged too). */
export function knownVersion(live: LiveCatalogs, logger: Logger): string | undefined {
  try {
    const version = live.version;
    logger.log('info', { event: 'catalog_version', version });
    return version;
  } catch (err) {
    logger.log('warn', { event: 'catalog_version_unknown', message: err instanceof Error ? err.message : String(err) });
    return undefined;
  }
}
