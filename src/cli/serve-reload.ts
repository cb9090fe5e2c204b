// `serve`'s catalogs beyond loading them: the embeddings endpoint attached to each version, and hot reload — the
// served catalogs become a LiveCatalogs (src/server/core/reload.ts) that every tool call reads, reloaded on SIGHUP
// and, unless --no-watch, when a registry's catalog.json changes. With several registries a reload loads each on
// its own (reloadRegistries): a broken one keeps its previous catalog (or, when that can no longer be read, is served
// as unavailable) and the others' changes are served.
import { basename, dirname, resolve } from 'node:path';
import type { ConfigFile, ServerConfig } from '../config.js';
import { AppError, type ErrorCode } from '../errors.js';
import type { Logger } from '../logger.js';
import { attachEmbeddings, buildCatalogSet, settingsFromConfig, type CatalogSet, type CatalogSetOptions, type EntryLookup } from '../server/core/catalogs.js';
import { defaultCatalogDir, loadCatalog, type Catalog } from '../registry/catalog.js';
import type { ServerDeps } from '../server/create-server.js';
import { engineLoadFailed } from '../server/core/engine-load.js';
import { loadSearchEngine, searchEngineLoaded } from '../server/core/search-engine.js';
import { noteUnavailable } from '../server/ops/catalog-readiness.js';
import { LiveCatalogs, ReloadRefused, type LoadedVersion, type RegistryRefusal, type ServedCatalogs } from '../server/core/reload.js';

export interface ReloadWiring {
  /** The registry folders served (empty: the embedded catalog). */
  registries: readonly string[];
  /** Watch their catalog.json (`--no-watch` turns it off). */
  watch: boolean;
  /** Up to this long (random) between a change's quiet time and its reload (`--watch-jitter`), ms. */
  jitterMs: number;
  /** Builds a fresh version from disk (the same loading, filters, settings and embeddings as at start). */
  load: (onChanged: (dir: string) => void, serving: ServedCatalogs) => Promise<LoadedVersion>;
  logger: Logger;
  /** SIGHUP, listened to since serve started (listenForReloads). */
  signal: ReloadSignal;
}

/**
 * SIGHUP from the first moment of `serve`: with no listener the signal would end the process (exit 129, no word)
 * while it loads its catalogs, which takes seconds with many registries or a slow volume. Until the catalogs are
 * served a SIGHUP is noted (and logged once a logger exists); startReloading makes it reload, and one that came
 * before is applied once the server serves (applyPending). close() takes its listener away again.
 */
export class ReloadSignal {
  private logger: Logger | undefined;
  private reload: (() => void) | undefined;
  private pending = false;
  private readonly onHup = (): void => {
    if (this.reload !== undefined) {
      this.logger?.log('info', { event: 'reload_requested', signal: 'SIGHUP' });
      this.reload();
    } else {
      this.pending = true;
      this.noteEarly();
    }
  };

  constructor() {
    process.on('SIGHUP', this.onHup);
  }

  /**
   * Removes the SIGHUP listener this added (idempotent): a process that runs serve and goes on (a test, an embedding)
   * keeps only the listeners it had. A SIGHUP after it reloads nothing.
   */
  close(): void {
    process.off('SIGHUP', this.onHup);
    this.reload = undefined;
    this.pending = false;
  }

  /** Logs from now on (and says so for a SIGHUP that came before). */
  useLogger(logger: Logger): void {
    this.logger = logger;
    if (this.pending) this.noteEarly();
  }

  /** SIGHUP reloads `live` from now on. */
  reloads(live: LiveCatalogs): void {
    // a reload reads the serving version's index, so the engine first (the bundle loads it on demand); once it is
    // there the signal reloads at once, as before the engine was loaded lazily
    this.reload = () => {
      if (searchEngineLoaded()) void live.reload('signal');
      else void loadSearchEngine().then(() => live.reload('signal'), (err: unknown) => engineLoadFailed(this.logger, err));
    };
  }

  /** The reload a SIGHUP during start-up asked for, now that the server serves (once). */
  applyPending(): void {
    if (!this.pending || this.reload === undefined) return;
    this.pending = false;
    this.logger?.log('info', { event: 'reload_requested', signal: 'SIGHUP', note: 'asked for during start-up; applied now that the server serves' });
    this.reload();
  }

  private noteEarly(): void {
    this.logger?.log('info', { event: 'reload_requested', signal: 'SIGHUP', note: 'during start-up, before the catalogs are served: applied once the server serves' });
  }
}

/** Makes `deps` answer from a swappable version; SIGHUP reloads it. Returns it (close() it at shutdown). */
export function startReloading(deps: ServerDeps, wiring: ReloadWiring): LiveCatalogs {
  const live = new LiveCatalogs({ catalogs: deps.catalogs, settings: deps.settings }, { load: wiring.load, logger: wiring.logger });
  deps.live = live;
  wiring.signal.reloads(live);
  if (wiring.watch) {
    live.watch((wiring.registries.length > 0 ? wiring.registries : [defaultCatalogDir()]).map((d) => resolve(d)), { jitterMs: wiring.jitterMs });
  }
  return live;
}

/**
 * What a reload loads: the registries again with the start's options, each on its own (reloadRegistries: a broken
 * one keeps its previous catalog, the others' changes are served), with the embeddings and settings the start has.
 */
export function registryLoader(config: ServerConfig, options: CatalogSetOptions, logger: Logger, file?: ConfigFile): ReloadWiring['load'] {
  return async (onChanged, serving) => {
    await loadSearchEngine();
    const { set, refused, changed } = await reloadRegistries(config.registries, { ...options, onChanged }, serving.catalogs);
    await useEmbeddings(set, config, logger, false);
    // a catalog whose re-import no longer fits its credential names is logged; it must not hold back the others' changes
    const credentialProblem = (e: AppError): void => logger.log('error', { event: 'catalog_credentials_invalid', code: e.code, message: e.message });
    return { catalogs: set, settings: settingsFromConfig(config, set, process.env, file, credentialProblem), refused, changed };
  };
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

/** The registries each served set was built from, before filters: what a reload compares with (loadRegistries). */
const loadedFrom = new WeakMap<CatalogSet, readonly Catalog[]>();
/** While set, the catalogs' onChanged says nothing: a reload reading files it is judging, not a served version. */
let quiet = false;

/** A set, what it holds of each registry, and (a reload) the registries refused and those whose change it applies. */
export interface RegistriesLoaded {
  set: CatalogSet;
  refused: RegistryRefusal[];
  changed: string[];
}

/**
 * A reload's registries with their search index ready. A changed registry is not parsed on this thread: the index
 * worker reads every file anyway (index-thread.ts) and checks it as loadCatalog does, so a set it builds is whole.
 * Only when it finds a registry damaged are the changed registries parsed here, to tell which one is at fault
 * (loadRegistries with `parse`): that one is refused on its own and the others' changes are served; the index of
 * that set is then prepared by the reload (LiveCatalogs). Without a previous set or with one registry: loadRegistries.
 */
export async function reloadRegistries(dirs: readonly string[], options: CatalogSetOptions, serving?: CatalogSet): Promise<RegistriesLoaded> {
  const loaded = loadRegistries(dirs, options, serving);
  // nothing new to read (or one registry, all or nothing): the reload prepares the index as it does for any set
  if (loaded.changed.length === 0) return loaded;
  try {
    await loaded.set.prepareIndex();
    return loaded;
  } catch (err) {
    if (err instanceof AppError && err.code === 'REGISTRY_INVALID') return loadRegistries(dirs, options, serving, { parse: true });
    // (a registry replaced meanwhile: REGISTRY_STALE, and the reload that serves it follows) none of the changes applies
    if (err instanceof AppError) throw new ReloadRefused(err.code, err.message, [], loaded.changed);
    throw err;
  }
}

/**
 * Loads the registry folders (none: the embedded catalog) into one set. A reload of several registries (`serving`:
 * the set served now) takes each on its own: a registry whose files are untouched keeps its catalog (and what it has
 * read); a changed one is loaded (and, with `parse`, parsed whole now, so that a damaged file or files that disagree
 * are its own refusal); a refused one keeps its previous catalog in the new set, so the others' changes are served.
 * That needs the previous catalog's operations as read before its files changed: when they cannot be read any more
 * (its index came from the index cache, so they were never parsed), the registry is served as unavailable (no tools;
 * a call naming one of its tools is REGISTRY_INVALID saying why) until a reload reads it whole. When nothing but
 * refusals changed, the reload is refused (ReloadRefused) naming the registries that failed. One registry, or the
 * first load: all or nothing.
 */
export function loadRegistries(dirs: readonly string[], options: CatalogSetOptions, serving?: CatalogSet, { parse = false }: { parse?: boolean } = {}): RegistriesLoaded {
  const list = (dirs.length > 0 ? dirs : [defaultCatalogDir()]).map((d) => resolve(d));
  const onChanged = options.onChanged;
  const told = (dir: string): void => {
    if (!quiet) onChanged?.(dir);
  };
  const open = (dir: string): Catalog => loadCatalog(dir, onChanged !== undefined ? { onChanged: told } : {});
  const previous = serving !== undefined ? loadedFrom.get(serving) : undefined;
  if (previous === undefined || list.length === 1) {
    const raw = list.map(open);
    return { set: remember(buildCatalogSet(raw, options), raw), refused: [], changed: [] };
  }
  const before = new Map(previous.map((c) => [c.dir, c]));
  const raw: Array<Catalog | undefined> = [];
  const refused: RegistryRefusal[] = [];
  const changed: string[] = [];
  for (const dir of list) {
    const prev = before.get(dir);
    quiet = true;
    try {
      const fresh = open(dir);
      const signature = fresh.statSignature?.();
      if (prev?.statSignature !== undefined && signature !== undefined && signature === prev.statSignature()) {
        raw.push(prev);
        continue;
      }
      // every file parsed and checked against catalog.json now: a broken one is this registry's refusal, not the set's
      if (parse) void fresh.operations;
      raw.push(fresh);
      changed.push(fresh.meta.name);
    } catch (err) {
      const code = err instanceof AppError ? { code: err.code } : {};
      const refusal: RegistryRefusal = { catalog: prev?.meta.name ?? basename(dir), dir, ...code, reason: err instanceof Error ? err.message : String(err) };
      const keep = prev !== undefined && !down.has(prev) ? kept(prev) : undefined;
      if (keep === undefined && prev !== undefined) refusal.reason += `; ${UNREADABLE}`;
      refused.push(refusal);
      raw.push(keep ?? (prev !== undefined ? unavailable(prev, refusal) : undefined));
    } finally {
      quiet = false;
    }
  }
  const lost = refused.filter((r) => raw[list.indexOf(r.dir)] === undefined);
  if (lost.length > 0 || (refused.length > 0 && changed.length === 0)) throw refusal(refused, lost.length > 0 ? changed : [], lost);
  const catalogs = raw as Catalog[];
  try {
    return { set: remember(guard(buildCatalogSet(catalogs, options), catalogs), catalogs), refused, changed };
  } catch (err) {
    // the set itself (two catalogs with one name, a filter the new version fails): none of the changes applies
    if (err instanceof AppError) throw new ReloadRefused(err.code, err.message, refused, changed);
    throw err;
  }
}

function remember(set: CatalogSet, raw: readonly Catalog[]): CatalogSet {
  loadedFrom.set(set, raw);
  return set;
}

/**
 * A refused registry's previous catalog, to stay in the new set: its operations as read (parsed now if its files
 * are still the ones it was loaded from), as a catalog in memory, since its folder no longer holds it (so the index
 * cache and the index worker leave it alone). Undefined when its operations can no longer be read.
 */
function kept(prev: Catalog | undefined): Catalog | undefined {
  if (prev === undefined) return undefined;
  let operations: Catalog['operations'];
  let byName: Catalog['byName'];
  try {
    ({ operations, byName } = prev);
  } catch {
    return undefined;
  }
  let contentHash: string | undefined;
  try {
    contentHash = prev.contentHash;
  } catch {
    // hashed from files replaced since: the set's version hashes its operations instead
  }
  return {
    dir: prev.dir,
    meta: prev.meta,
    skipped: prev.skipped,
    operations,
    byName,
    ...(contentHash !== undefined ? { contentHash } : {}),
    operationsInDomain: (domain) => prev.operationsInDomain?.(domain),
    parsedFiles: () => prev.parsedFiles?.() ?? [],
  };
}

/** Said of a refused registry whose previous version cannot be kept either (in the refusal and in every call's error). */
const UNREADABLE =
  'its previous version can no longer be read either (its files changed before they were read), so it is served without its tools until it is fixed';

/** A registry served as unavailable, and the refusal that says why (what a call naming one of its tools answers). */
const down = new WeakMap<Catalog, RegistryRefusal>();

/**
 * A refused registry whose previous catalog cannot be kept (unreadable): in the new set by its name, with no
 * operation and no domain, so the others keep their names (`<catalog>.<name>`) and a call naming one of its tools
 * is told why (guard) instead of UNKNOWN_TOOL. In memory: the index worker and the index cache leave it alone.
 */
function unavailable(prev: Catalog, refusal: RegistryRefusal): Catalog {
  const catalog: Catalog = { dir: prev.dir, meta: { ...prev.meta, operationCount: 0, domains: [] }, skipped: [], operations: [], byName: new Map(), parsedFiles: () => [] };
  down.set(catalog, refusal);
  return catalog;
}

/**
 * The set, whose lookups of an unavailable registry's tools throw REGISTRY_INVALID saying why and what fixes it, and
 * which /readyz reports as degraded, naming each such registry and why.
 */
function guard(set: CatalogSet, catalogs: readonly Catalog[]): CatalogSet {
  const out = catalogs.flatMap((c) => {
    const r = down.get(c);
    return r !== undefined ? [{ prefix: `${c.meta.name}.`, r }] : [];
  });
  if (out.length === 0) return set;
  // /readyz and /metrics name them (the replica stays ready, degraded: src/server/ops/catalog-readiness.ts)
  noteUnavailable(set, out.map((o) => o.r));
  const inner = set.byName;
  const get = (name: string): ReturnType<EntryLookup['get']> => {
    const hit = out.find((o) => name.startsWith(o.prefix));
    if (hit === undefined) return inner.get(name);
    const { catalog, dir, reason } = hit.r;
    throw new AppError(
      'REGISTRY_INVALID',
      `catalog ${catalog} is not served: the last reload refused its registry (${reason}); ` +
        `re-run its import (\`api-catalog import <spec> --name ${catalog} --out ${dirname(dir)}\`) and it is served again`,
    );
  };
  // `has` answers no for such a tool rather than throwing: "is there such a tool" (did-you-mean, the call record)
  // has an answer; only a lookup that would use the operation says why it cannot
  const has = (name: string): boolean => !out.some((o) => name.startsWith(o.prefix)) && inner.has(name);
  (set as { byName: EntryLookup }).byName = { get, has };
  return set;
}

/** The reload refused whole: the registries that failed, and (`notApplied`) the changes it therefore does not serve. */
function refusal(refused: RegistryRefusal[], notApplied: string[], lost: RegistryRefusal[]): ReloadRefused {
  const first = refused[0] as RegistryRefusal;
  let message = refused.map((r) => `${r.catalog}: ${r.reason}`).join('; ');
  if (notApplied.length > 0) {
    const names = lost.map((r) => r.catalog).join(', ');
    message +=
      `; not applied: ${notApplied.join(', ')} (changed on disk), because ${names} has no previous version to keep ` +
      `and every catalog must be in the new version: fix ${names} (re-run its import) and all of them are applied`;
  }
  return new ReloadRefused((first.code ?? 'REGISTRY_INVALID') as ErrorCode, message, refused, notApplied);
}
