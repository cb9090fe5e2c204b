// Registry changes under a running server: the catalogs a server answers from are one version (operations, search
// index, execution settings), built or restored off to the side and swapped in with one assignment, so search,
// describe and execute always answer from one version. Reloads on SIGHUP (the CLI wires it), when a watched
// registry's catalog.json (or embeddings.json) changes (polled, debounced), and when an old version finds a file
// that changed under it. A reload that fails (a registry whose files disagree among them) keeps the version serving,
// logs why and keeps the refusal (`lastFailure`, shown by /readyz) until a reload succeeds.
import { unwatchFile, watchFile, type Stats } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { CatalogSet } from './catalogs.js';
import type { ExecutionSettings } from './settings.js';

/** One version of what a server answers from. Every tool call takes one (`LiveCatalogs.current`) and keeps it. */
export interface ServedCatalogs {
  catalogs: CatalogSet;
  settings: ExecutionSettings;
}

/** What started a reload (in the log lines). */
export type ReloadTrigger = 'signal' | 'watch' | 'changed' | 'request';

export type ReloadOutcome =
  | { ok: true; trigger: ReloadTrigger; version: string; previous: string; changed: boolean; ms: number }
  | { ok: false; trigger: ReloadTrigger; version: string; reason: string; ms: number };

/** A reload that was refused, kept until one succeeds: /readyz shows it beside the version still served. */
export interface ReloadFailure {
  trigger: ReloadTrigger;
  /** The error's code (REGISTRY_INVALID for files that disagree or are damaged, REGISTRY_NOT_FOUND, ...). */
  code?: string;
  reason: string;
  /** When it was refused (ISO 8601). */
  at: string;
  /** The version that went on serving ('' when it could not name itself). */
  serving: string;
}

export interface LiveCatalogsOptions {
  /**
   * Builds a version from disk (load the registries, filters, settings, embeddings) for a reload; throws when a
   * registry cannot be loaded. `onChanged` is to be passed to the catalogs (CatalogSetOptions.onChanged).
   */
  load: (onChanged: (dir: string) => void) => Promise<ServedCatalogs>;
  logger?: Logger;
  /** Called after each swap, with the new version (the CLI refreshes what it derives from the catalogs). */
  onSwap?: (served: ServedCatalogs) => void;
}

export interface WatchOptions {
  /** How often each watched file is stat'ed; default 500 ms. */
  intervalMs?: number;
  /** Quiet time after the last change before reloading; default 1000 ms (an import writes several files). */
  debounceMs?: number;
}

/**
 * Reloads that ran to an end in this process, by outcome, every LiveCatalogs together: what /metrics counts
 * (api_catalog_catalog_reloads_total, src/server/ops/metrics.ts). Kept here, per process, because a counter is a
 * process's: a served process has one LiveCatalogs, and the metrics module reads it without being handed it.
 */
const reloadTally = { ok: 0, failed: 0 };

/** Reloads so far in this process: swapped (`ok`) and refused (`failed`). */
export function reloadsInProcess(): { ok: number; failed: number } {
  return { ...reloadTally };
}

/** The files whose change means a new version: catalog.json (every import rewrites it) and the stored vectors. */
const WATCHED_FILES = ['catalog.json', 'embeddings.json'];

/**
 * The served version and how it is replaced. Reloads run one at a time; a reload asked for while one runs runs
 * once more after it (several asks coalesce), so the last change on disk is always the one served.
 */
export class LiveCatalogs {
  private served: ServedCatalogs;
  private running: Promise<ReloadOutcome> | undefined;
  private pending: { trigger: ReloadTrigger; waiters: Array<(o: ReloadOutcome) => void> } | undefined;
  private readonly watched: string[] = [];
  private debounce: NodeJS.Timeout | undefined;
  private closed = false;
  private reloads = 0;
  private failure: ReloadFailure | undefined;

  constructor(
    initial: ServedCatalogs,
    private readonly options: LiveCatalogsOptions,
  ) {
    this.served = initial;
  }

  /** The version to answer from now. A caller reads it once per call and uses that object throughout. */
  get current(): ServedCatalogs {
    return this.served;
  }

  /** The served catalog version (CatalogSet.version: the registry content hash prefix). */
  get version(): string {
    return this.served.catalogs.version;
  }

  /** Successful swaps so far (tests, logs). */
  get reloadCount(): number {
    return this.reloads;
  }

  /** The last reload's refusal, until a reload succeeds; undefined when the last reload swapped (or none ran). */
  get lastFailure(): ReloadFailure | undefined {
    return this.failure;
  }

  /** The callback a version's catalogs call when one of their files changed on disk: reload soon. */
  readonly changed = (dir: string): void => {
    this.options.logger?.log('info', { event: 'catalog_changed', dir });
    this.schedule('changed', 0);
  };

  /**
   * Loads the registries again and swaps the new version in when it loads; when it fails, the version serving
   * goes on and the reason is logged (and returned).
   */
  reload(trigger: ReloadTrigger = 'request'): Promise<ReloadOutcome> {
    if (this.running !== undefined) {
      // one more run after the current one, for every ask made meanwhile
      return new Promise((resolve) => {
        if (this.pending === undefined) this.pending = { trigger, waiters: [] };
        this.pending.waiters.push(resolve);
      });
    }
    const run = this.run(trigger).finally(() => {
      this.running = undefined;
      const next = this.pending;
      this.pending = undefined;
      if (next !== undefined && !this.closed) {
        void this.reload(next.trigger).then((o) => {
          for (const w of next.waiters) w(o);
        });
      }
    });
    this.running = run;
    return run;
  }

  private async run(trigger: ReloadTrigger): Promise<ReloadOutcome> {
    const t0 = performance.now();
    const logger = this.options.logger;
    let previous = '';
    try {
      previous = this.version;
    } catch {
      // the serving version cannot name itself (its files are gone): the reload decides
    }
    let next: ServedCatalogs;
    let version: string;
    try {
      const before = this.served;
      next = await this.options.load(this.changed);
      // Off to the side, before anyone sees it: the search index (restored from a snapshot or the index cache
      // when one matches, else built), the version (it reads the content a snapshot did not vouch for), and the
      // operations files the serving version had read (the domains in use), so they are parsed and checked now.
      void next.catalogs.index;
      version = next.catalogs.version;
      warmDomains(before.catalogs, next.catalogs);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      const code = err instanceof AppError ? err.code : undefined;
      const ms = Math.round(performance.now() - t0);
      logger?.log('error', { event: 'catalog_reload_failed', trigger, ...(code !== undefined ? { code } : {}), reason: reason.slice(0, 500), serving: previous, ms });
      this.failure = { trigger, ...(code !== undefined ? { code } : {}), reason: reason.slice(0, 500), at: new Date().toISOString(), serving: previous };
      reloadTally.failed++;
      return { ok: false, trigger, version: previous, reason, ms };
    }
    if (this.closed) return { ok: false, trigger, version: previous, reason: 'closed', ms: Math.round(performance.now() - t0) };
    this.served = next;
    this.reloads++;
    reloadTally.ok++;
    this.failure = undefined;
    const ms = Math.round(performance.now() - t0);
    // meta.operationCount is already the served count (filterCatalogs recounts it); filteredOut is said apart
    const operations = next.catalogs.catalogs.reduce((n, c) => n + c.meta.operationCount, 0);
    logger?.log('info', {
      event: 'catalog_reloaded',
      trigger,
      version,
      previous,
      changed: version !== previous,
      operations,
      index: next.catalogs.indexSource?.kind,
      ms,
    });
    this.options.onSwap?.(next);
    return { ok: true, trigger, version, previous, changed: version !== previous, ms };
  }

  /** A reload `delayMs` from now, unless another change comes first (then from that one). */
  private schedule(trigger: ReloadTrigger, delayMs: number): void {
    if (this.closed) return;
    clearTimeout(this.debounce);
    this.debounce = setTimeout(() => void this.reload(trigger), delayMs);
    this.debounce.unref();
  }

  /**
   * Reloads when catalog.json or embeddings.json of one of `dirs` changes. Polled with stat (fs.watchFile), not
   * inotify: an import replaces the whole folder, and mounted volumes (a Kubernetes ConfigMap) swap a symlink;
   * a path stat'ed every interval sees both, where a watch on the old inode would not.
   */
  watch(dirs: readonly string[], options: WatchOptions = {}): void {
    const interval = options.intervalMs ?? 500;
    const debounce = options.debounceMs ?? 1000;
    for (const dir of dirs) {
      for (const f of WATCHED_FILES) {
        const path = join(dir, f);
        // Compared with the stat this watcher last saw, not with the `prev` watchFile passes: after the file was
        // gone, libuv passes as `prev` the stat from before the removal, so a folder moved away and back (or a file
        // restored unchanged) would look unchanged, and the refusal its removal caused would stay forever.
        let seen: string | undefined;
        watchFile(path, { interval, persistent: false }, (curr: Stats, prev: Stats) => {
          const before = seen ?? statKey(prev);
          seen = statKey(curr);
          if (seen !== before) this.schedule('watch', debounce);
        });
        this.watched.push(path);
      }
    }
    this.options.logger?.log('info', { event: 'catalog_watch', dirs: [...dirs], intervalMs: interval, debounceMs: debounce });
  }

  /** Stops watching and reloading (in-flight reloads finish without swapping). */
  close(): void {
    this.closed = true;
    clearTimeout(this.debounce);
    for (const path of this.watched.splice(0)) unwatchFile(path);
  }
}

/** What identifies a version of a watched file; a missing one (watchFile zeroes every field) is 'gone'. */
function statKey(st: Stats): string {
  if (st.ino === 0 && st.mtimeMs === 0 && st.nlink === 0) return 'gone';
  return `${st.ino}:${st.size}:${st.mtimeMs}`;
}

/** Parses in `next` the operations files `previous` had parsed (by catalog name); throws for a broken one. */
function warmDomains(previous: CatalogSet, next: CatalogSet): void {
  const hot = new Map(previous.catalogs.map((c) => [c.meta.name, c.parsedFiles?.() ?? []]));
  for (const c of next.catalogs) {
    for (const file of hot.get(c.meta.name) ?? []) c.operationsInDomain?.(file.replace(/\.json$/, ''));
  }
}
