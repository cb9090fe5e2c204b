// Registry changes under a running server: the catalogs a server answers from are one version (operations, search
// index, execution settings), built or restored off to the side and swapped in with one assignment, so search,
// describe and execute always answer from one version. Reloads on SIGHUP (the CLI wires it), when a watched
// registry's catalog.json (or embeddings.json) changes (polled, debounced, then a random wait so replicas sharing a
// volume do not all reload at once), and when an old version finds a file that changed under it. A reload that fails
// (a registry whose files disagree among them) keeps the version serving, logs why and keeps the refusal
// (`lastFailure`, shown by /readyz) until a reload succeeds, and tells the version serving (refusedToServing); with
// several registries the loader refuses only the broken one (its previous catalog stays in the new version). A refusal
// the disk caused (a registry still being copied) is retried at 2, 5 and 15 s, then at every later change of the
// refused registries' files.
import { resolve } from 'node:path';
import { AppError, type ErrorCode } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { CatalogSet } from './catalogs.js';
import { refusedToServing, warmDomains } from './reload-handover.js';
import { filesStamp, unwatchFiles, watchRegistryFiles } from './registry-watch.js';
import type { ExecutionSettings } from './settings.js';

/** One version of what a server answers from. Every tool call takes one (`LiveCatalogs.current`) and keeps it. */
export interface ServedCatalogs {
  catalogs: CatalogSet;
  settings: ExecutionSettings;
}

/** What started a reload (in the log lines). */
export type ReloadTrigger = 'signal' | 'watch' | 'changed' | 'request' | 'retry';

/** A registry whose new files a reload refused: the new version keeps its previous catalog (or nothing was swapped). */
export interface RegistryRefusal {
  /** The catalog's name as served (its folder's name when it never loaded). */
  catalog: string;
  dir: string;
  code?: string;
  reason: string;
}

/**
 * A reload refused because of some registries: those that failed, and the changed ones it therefore does not apply
 * (their new version is not served either). Thrown by a loader; LiveCatalogs reports both.
 */
export class ReloadRefused extends AppError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly failed: RegistryRefusal[],
    readonly notApplied: string[],
  ) {
    super(code, message);
  }
}

export type ReloadOutcome =
  | { ok: true; trigger: ReloadTrigger; version: string; previous: string; changed: boolean; ms: number; refused?: RegistryRefusal[] }
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
  /** The registries whose new files were refused (several registries: the others' changes are served). */
  failed?: RegistryRefusal[];
  /** Changed registries whose new version is not served because of the failure (catalog names). */
  notApplied?: string[];
  /** When it is tried again (ISO 8601), or 'on the next change of its files'; absent: not retried (SIGHUP retries). */
  nextRetry?: string;
}

export interface LiveCatalogsOptions {
  /**
   * Builds a version from disk (load the registries, filters, settings, embeddings) for a reload; throws when a
   * registry cannot be loaded. `onChanged` is to be passed to the catalogs (CatalogSetOptions.onChanged).
   */
  load: (onChanged: (dir: string) => void, serving: ServedCatalogs) => Promise<LoadedVersion>;
  logger?: Logger;
  /** Called after each swap, with the new version (the CLI refreshes what it derives from the catalogs). */
  onSwap?: (served: ServedCatalogs) => void;
}

/** What a load built: the new version, and what it did per registry (absent fields: all of it loaded and applies). */
export interface LoadedVersion extends ServedCatalogs {
  /** Registries whose new files were refused: the version holds their previous catalog instead. */
  refused?: RegistryRefusal[];
  /** The catalogs whose files changed and whose new version this is (named when a later step fails: not applied). */
  changed?: string[];
}

export interface WatchOptions {
  /** How often each watched file is stat'ed; default 500 ms. */
  intervalMs?: number;
  /** Quiet time after the last change before reloading; default 1000 ms (an import writes several files). */
  debounceMs?: number;
  /** Up to this long more (random, so replicas sharing a volume spread out) before a watch-triggered reload; default 0. */
  jitterMs?: number;
}

/**
 * Reloads that ran to an end in this process, by outcome, every LiveCatalogs together: what /metrics counts
 * (api_catalog_catalog_reloads_total, src/server/ops/metrics.ts). Kept here, per process, because a counter is a
 * process's: a served process has one LiveCatalogs, and the metrics module reads it without being handed it.
 */
const reloadTally = { ok: 0, failed: 0, partial: 0 };

/** Reloads so far in this process: swapped (`ok`), refused (`failed`), swapped without a refused registry (`partial`). */
export function reloadsInProcess(): { ok: number; failed: number; partial: number } {
  return { ...reloadTally };
}

/** Waits before retrying a refusal the disk caused; after the last, a retry waits for a change of the files. */
const RETRY_DELAYS_MS = [2000, 5000, 15_000];
/** How often the refused registries' files are stat'ed for a change once the timed retries are spent. */
const RETRY_POLL_MS = 5000;
/** Refusals a writer still at work causes (files that disagree, or that changed while read): worth retrying. */
const RETRYABLE = new Set(['REGISTRY_INVALID', 'REGISTRY_STALE']);
/** Triggers that come from the disk (not from an operator, who sends SIGHUP again). */
const FROM_DISK = new Set<ReloadTrigger>(['watch', 'changed', 'retry']);

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
  /** The watched registry folders (watch()); the retry timer and how many retries ran since the disk last changed. */
  private readonly watchedDirs: string[] = [];
  private retryTimer: NodeJS.Timeout | undefined;
  /** The retry timer is one of RETRY_DELAYS_MS (not the poll for a change after them). */
  private timedRetry = false;
  private retries = 0;
  /** While a reload runs: the folders a version said changed (`changed`), weighed when it ends (see `settle`). */
  private heard: Set<string> | undefined;

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

  /**
   * A version's catalogs found a file of theirs changed on disk: reload at once, not after the watch's jitter (that
   * version fails the calls needing it and /readyz is 503 until a new one serves: docs/DEPLOY.md, Registry updates).
   */
  readonly changed = (dir: string): void => {
    this.options.logger?.log('info', { event: 'catalog_changed', dir });
    // during a reload, which is reading the folders now: weighed once it ends, not a second load queued at once
    if (this.heard !== undefined) this.heard.add(dir);
    else this.schedule('changed', 0);
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
    // the serving registries' files as this reload starts: what a `changed` heard meanwhile (naming the version
    // serving reads its files) is weighed against once it ends
    const stamps = new Map(this.knownDirs().map((d) => [d, filesStamp([d])]));
    this.heard = new Set();
    let previous = '';
    try {
      previous = this.version;
    } catch {
      // the serving version cannot name itself (its files are gone): the reload decides
    }
    let next: LoadedVersion;
    let version: string;
    let loaded: LoadedVersion | undefined;
    try {
      const before = this.served;
      next = loaded = await this.options.load(this.changed, before);
      // Off to the side, before anyone sees it: the search index (restored from a snapshot or the index cache
      // when one matches, else built in a worker thread, so that this thread keeps answering calls and probes
      // meanwhile: index-thread.ts), the version (it reads the content a snapshot did not vouch for), and the
      // operations files the serving version had read (the domains in use), so they are parsed and checked now.
      await next.catalogs.prepareIndex();
      version = next.catalogs.version;
      warmDomains(before.catalogs, next.catalogs);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      // a loader's refusal names the registries; a later step's failure leaves every change the load made unapplied
      const refused = err instanceof ReloadRefused ? err : { failed: [], notApplied: loaded?.changed ?? [] };
      this.refuse(trigger, err instanceof AppError ? err.code : undefined, reason, previous, refused.failed, refused.notApplied, t0);
      this.settle(stamps);
      reloadTally.failed++;
      return { ok: false, trigger, version: previous, reason, ms: Math.round(performance.now() - t0) };
    }
    this.settle(stamps);
    if (this.closed) return { ok: false, trigger, version: previous, reason: 'closed', ms: Math.round(performance.now() - t0) };
    this.served = next;
    this.reloads++;
    const refused = next.refused ?? [];
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
      ...(refused.length > 0 ? { refused: refused.map((r) => r.catalog) } : {}),
      ms,
    });
    if (refused.length === 0) {
      reloadTally.ok++;
      this.failure = undefined;
      this.retryAfter(trigger, 'ok');
    } else {
      // the other registries' changes are served; the broken ones keep their previous catalog, said as a refusal
      reloadTally.partial++;
      const reason = refused.map((r) => `${r.catalog}: ${r.reason}`).join('; ');
      this.refuse(trigger, refused[0]?.code, reason, version, refused, [], t0);
    }
    this.options.onSwap?.(next);
    return { ok: true, trigger, version, previous, changed: version !== previous, ms, ...(refused.length > 0 ? { refused } : {}) };
  }

  /**
   * Logs a refusal (catalog_reload_failed) and keeps it for /readyz until a reload succeeds: the registries that
   * failed, the changed ones not applied because of them, and when it is tried again.
   */
  private refuse(trigger: ReloadTrigger, code: string | undefined, reason: string, serving: string, failed: RegistryRefusal[], notApplied: string[], t0: number): void {
    const codes = failed.length > 0 ? failed.map((f) => f.code) : [code];
    const nextRetry = this.retryAfter(trigger, codes.some((c) => c !== undefined && RETRYABLE.has(c)) ? 'retryable' : 'final', failed.map((f) => f.dir));
    const why = {
      trigger,
      ...(code !== undefined ? { code } : {}),
      reason: reason.slice(0, 500),
      serving,
      ...(failed.length > 0 ? { failed: failed.map((f) => ({ ...f, reason: f.reason.slice(0, 500) })) } : {}),
      ...(notApplied.length > 0 ? { notApplied } : {}),
      ...(nextRetry !== undefined ? { nextRetry } : {}),
    };
    this.options.logger?.log('error', { event: 'catalog_reload_failed', ...why, ms: Math.round(performance.now() - t0) });
    this.failure = { ...why, at: new Date().toISOString() };
    // a timed retry pending (a writer may still be at work): the serving version goes on saying "retry"; once the
    // refusal is final, or the timed retries are spent, it is told, and its unservable files answer why
    if (!this.timedRetry) refusedToServing(this.served.catalogs, reason, failed);
  }

  /**
   * After a reload: a refusal the disk caused that a writer still at work explains ('retryable') is tried again at
   * 2, 5 and 15 s, then whenever a file of the refused registries (`dirs`; none named: every watched one) changes; a
   * success, or a refusal retrying cannot fix, ends that. A refused operator's reload (SIGHUP) leaves a pending retry
   * as it is. Returns when the next try is, for the refusal.
   */
  private retryAfter(trigger: ReloadTrigger, outcome: 'ok' | 'retryable' | 'final', dirs: readonly string[] = []): string | undefined {
    if (outcome !== 'ok' && !FROM_DISK.has(trigger)) return this.failure?.nextRetry;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.timedRetry = false;
    if (outcome !== 'retryable' || this.closed) {
      this.retries = 0;
      return undefined;
    }
    // a new change on disk starts the series again; a retry that failed goes on with it
    this.retries = trigger === 'retry' ? this.retries + 1 : 0;
    const delay = RETRY_DELAYS_MS[this.retries];
    if (delay !== undefined) {
      this.retryTimer = setTimeout(() => void this.reload('retry'), delay).unref();
      this.timedRetry = true;
      return new Date(Date.now() + delay).toISOString();
    }
    const watched = dirs.length > 0 ? [...dirs] : [...this.watchedDirs];
    if (watched.length === 0) return undefined;
    const seen = filesStamp(watched);
    const poll = (): void => {
      if (filesStamp(watched) !== seen) void this.reload('retry');
      else this.retryTimer = setTimeout(poll, RETRY_POLL_MS).unref();
    };
    this.retryTimer = setTimeout(poll, RETRY_POLL_MS).unref();
    return 'on the next change of its files';
  }

  /** The registry folders the serving version was loaded from, and the watched ones. */
  private knownDirs(): string[] {
    const served = (this.served.catalogs.catalogs ?? []).map((c) => c.dir).filter((d): d is string => typeof d === 'string');
    return [...new Set([...served, ...this.watchedDirs].map((d) => resolve(d)))];
  }

  /**
   * A reload ended: a folder a version said changed while it ran is reloaded again only when its files changed
   * after the reload began (or it is not one whose files were stamped then). Unchanged, the reload just read those
   * very files, so its outcome stands: a registry that stays broken is loaded once per attempt, not twice (its
   * retries come from retryAfter, as for any refusal the disk caused).
   */
  private settle(stamps: ReadonlyMap<string, string>): void {
    const heard = this.heard ?? new Set<string>();
    this.heard = undefined;
    for (const dir of heard) {
      const before = stamps.get(resolve(dir));
      if (before === undefined || filesStamp([resolve(dir)]) !== before) {
        this.schedule('changed', 0);
        return;
      }
    }
  }

  /** A reload `delayMs` from now, unless another change comes first (then from that one). */
  private schedule(trigger: ReloadTrigger, delayMs: number): void {
    if (this.closed) return;
    clearTimeout(this.debounce);
    this.debounce = setTimeout(() => void this.reload(trigger), delayMs);
    this.debounce.unref();
  }

  /**
   * Reloads when catalog.json or embeddings.json of one of `dirs` changes (polled with stat: registry-watch.ts;
   * mounted volumes such as a Kubernetes ConfigMap swap a symlink, which a stat sees). After the quiet time it waits
   * a random 0..`jitterMs` more: replicas that share a registry volume see a change together, and reloading at once
   * they would all be busy at once.
   */
  watch(dirs: readonly string[], options: WatchOptions = {}): void {
    const interval = options.intervalMs ?? 500;
    const debounce = options.debounceMs ?? 1000;
    const jitter = options.jitterMs ?? 0;
    this.watchedDirs.push(...dirs);
    const paths = watchRegistryFiles(dirs, interval, (path) => {
      const delay = debounce + Math.round(Math.random() * jitter);
      this.options.logger?.log('info', { event: 'catalog_change_seen', file: path, reloadInMs: delay });
      this.schedule('watch', delay);
    });
    this.watched.push(...paths);
    this.options.logger?.log('info', { event: 'catalog_watch', dirs: [...dirs], intervalMs: interval, debounceMs: debounce, jitterMs: jitter });
  }

  /** Stops watching and reloading (in-flight reloads finish without swapping). */
  close(): void {
    this.closed = true;
    clearTimeout(this.debounce);
    clearTimeout(this.retryTimer);
    unwatchFiles(this.watched.splice(0));
  }
}
