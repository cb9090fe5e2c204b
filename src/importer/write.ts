// Writing a registry: render the catalog to bytes (pretty JSON, stable order, trailing newline, so a re-import
// is byte-identical and a diff reads well), swap it into place atomically, report what changed per domain,
// and compare without writing for `import --check`. A re-import that changes anything also leaves that report in
// changes.json (history, not derived from the spec: `--check` ignores it, an unchanged re-import keeps it).
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { AppError } from '../errors.js';
import type { CatalogMeta, Diagnostic, Operation, ServerInfo } from '../types.js';
import { specPathOf } from './paths.js';

/** What `importSpec` produced. */
export interface ImportResult {
  meta: CatalogMeta;
  /** Sorted by name. */
  operations: Operation[];
  /** Warnings and lint findings, sorted by pointer, code, message. */
  diagnostics: Diagnostic[];
}

export interface DomainChange {
  domain: string;
  added: string[];
  removed: string[];
  changed: string[];
}

export interface WriteReport {
  /** The catalog folder written. */
  dir: string;
  /** False when there was no previous registry at that place. */
  hadPrevious: boolean;
  /** Domains with any added, removed or changed operation, sorted by domain. */
  changes: DomainChange[];
  /** Set when the catalog's servers changed: a new upstream host deserves a human look (RELIABILITY D19). */
  serversChanged?: { before: string[]; after: string[] };
  /** True when every file is byte-identical to what was there. */
  unchanged: boolean;
}

/** `<catalog>/changes.json`: what the last re-import that changed anything changed (read by the explorer). */
export const CHANGES_FILE = 'changes.json';
/**
 * The catalog's own settings, written by hand by whoever publishes the catalog (e.g. the origins its operations may
 * use): the per-catalog section of a config file (docs/config.schema.json), read by `serve`
 * (src/server/core/settings.ts). Not derived from the spec: a re-import carries it over and `--check` ignores it.
 */
export const SETTINGS_FILE = 'settings.json';

/** The content of changes.json. */
export interface ChangesFile {
  before: { version: string; sourceSha256: string; operationCount: number };
  after: { version: string; sourceSha256: string; operationCount: number };
  /** Domains with any added, removed or changed operation (empty: metadata or diagnostics only). */
  domains: DomainChange[];
  serversChanged?: { before: string[]; after: string[] };
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

/** The catalog as files: relative path (posix) -> content. */
export function renderRegistry(result: ImportResult): Map<string, string> {
  const files = new Map<string, string>();
  files.set('catalog.json', json(result.meta));
  const byDomain = new Map<string, Operation[]>();
  for (const op of result.operations) {
    const list = byDomain.get(op.domain) ?? [];
    list.push(op);
    byDomain.set(op.domain, list);
  }
  for (const domain of [...byDomain.keys()].sort()) {
    const list = (byDomain.get(domain) as Operation[]).slice().sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    files.set(`operations/${domain}.json`, json(list));
  }
  files.set('diagnostics.json', json(result.diagnostics));
  return files;
}

/**
 * Files in a catalog folder that are derived from the registry rather than rendered here: the search index
 * snapshot (written by `api-catalog import` after the registry; src/registry/snapshot.ts). A fresh import does
 * not count them as extra; the swap in writeRegistry drops them with the old folder.
 */
const DERIVED_FILES = new Set(['search.snapshot']);

function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else out.push(relative(dir, p).split(sep).join('/'));
    }
  };
  if (existsSync(dir)) walk(dir);
  return out.sort();
}

/** `<method> <path>`: what an operation requests (several share one where the spec's keys differ only by `#...`). */
const endpointOf = (op: Pick<Operation, 'method' | 'path'>): string => `${op.method} ${op.path}`;

/** The operations of a catalog folder by name: domain, the JSON text compared, `<method> <path>` and operationId. */
export type PreviousOperations = Map<string, { domain: string; text: string; endpoint: string; operationId: string }>;

/**
 * The operations the catalog `<outDir>/<catalog>/` has now (empty when there is none), read once per import: the
 * mass-removal guard (removedOperations) and the change report (stageRegistry) both compare against it.
 */
export function previousOperations(outDir: string, catalog: string): PreviousOperations {
  return readOperations(join(outDir, catalog));
}

function readOperations(dir: string): PreviousOperations {
  const out: PreviousOperations = new Map();
  const opsDir = join(dir, 'operations');
  if (!existsSync(opsDir)) return out;
  for (const file of readdirSync(opsDir).filter((f) => f.endsWith('.json'))) {
    try {
      const list = JSON.parse(readFileSync(join(opsDir, file), 'utf8')) as Operation[];
      for (const op of list) out.set(op.name, { domain: op.domain, text: JSON.stringify(op), endpoint: endpointOf(op), operationId: op.operationId });
    } catch {
      /* an unreadable old file: everything in it counts as removed/added */
    }
  }
  return out;
}

function diffOperations(before: PreviousOperations, result: ImportResult): DomainChange[] {
  const changes = new Map<string, DomainChange>();
  const entry = (domain: string): DomainChange => {
    let c = changes.get(domain);
    if (!c) {
      c = { domain, added: [], removed: [], changed: [] };
      changes.set(domain, c);
    }
    return c;
  };
  const seen = new Set<string>();
  for (const op of result.operations) {
    seen.add(op.name);
    const old = before.get(op.name);
    if (!old) entry(op.domain).added.push(op.name);
    else if (old.text !== JSON.stringify(op)) entry(op.domain).changed.push(op.name);
  }
  for (const [name, old] of before) if (!seen.has(name)) entry(old.domain).removed.push(name);
  return [...changes.values()].sort((a, b) => (a.domain < b.domain ? -1 : 1)).map((c) => ({ ...c, added: c.added.sort(), removed: c.removed.sort(), changed: c.changed.sort() }));
}

/**
 * What writing `result` would remove from a catalog whose operations are now `before` (previousOperations): its
 * operations (by name, as the change report counts them, diffOperations) that the import no longer has, less the
 * renamed ones (the same method and path under a new name: a naming change loses nothing). The returned `before` is
 * how many operations the catalog has now (0: none).
 *
 * Several operations can share a method and path (`POST /` for each of ec2's `/#Action=...` keys; the catalog keeps
 * the path requested, not the spec's key), so a renaming is counted one for one: each operation gone by name takes one
 * of the import's operations at its endpoint under a name that endpoint did not have (the same operationId first, then
 * in name order); those left over are removed. An import's operation is at its spec key too (specPathOf), where a
 * catalog written before keys were normalised has it. Where each endpoint has one operation, as in most specs, this is
 * the same as asking whether the endpoint is still there.
 */
export function removedOperations(result: ImportResult, before: PreviousOperations): { before: number; removed: string[] } {
  const names = new Set(result.operations.map((op) => op.name));
  const oldNames = new Map<string, Set<string>>();
  for (const [name, old] of before) oldNames.set(old.endpoint, (oldNames.get(old.endpoint) ?? new Set()).add(name));
  // per endpoint, the import's operations there under a name the endpoint did not have
  const fresh = new Map<string, Operation[]>();
  for (const op of result.operations) {
    const at = [...new Set([endpointOf(op), `${op.method} ${specPathOf(op)}`])];
    if (at.some((e) => oldNames.get(e)?.has(op.name))) continue;
    for (const e of at) {
      const list = fresh.get(e);
      if (list) list.push(op);
      else fresh.set(e, [op]);
    }
  }
  const taken = new Set<Operation>();
  // takes one of the operations at `at` not yet taken: the one with that operationId, or (null) any
  const take = (at: string, operationId: string | null): boolean => {
    const op = fresh.get(at)?.find((o) => !taken.has(o) && (operationId === null || o.operationId === operationId));
    if (op !== undefined) taken.add(op);
    return op !== undefined;
  };
  const gone = [...before].filter(([name]) => !names.has(name)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const unpaired = gone.filter(([, old]) => !take(old.endpoint, old.operationId));
  const removed = unpaired.filter(([, old]) => !take(old.endpoint, null)).map(([name]) => name);
  return { before: before.size, removed: removed.sort() };
}

function serverUrls(servers: ServerInfo[] | undefined): string[] {
  return (servers ?? []).map((s) => s.url);
}

/**
 * Writes `<outDir>/<catalog>/` atomically: the tree is built in a temporary sibling folder and swapped in
 * with renames, so a failed or interrupted import leaves the previous registry as it was. `beforeSwap` adds
 * derived files to the temporary folder first (the swap moves them in with the rest). Returns the per-domain
 * change report against the previous registry. stageRegistry does the same in two steps, for a caller that
 * wants to stop between them (the CLI on Ctrl-C).
 */
export function writeRegistry(result: ImportResult, outDir: string, options: { beforeSwap?: (dir: string) => void } = {}): WriteReport {
  const staged = stageRegistry(result, outDir);
  if (staged.tmp !== undefined) {
    try {
      options.beforeSwap?.(staged.tmp);
    } catch (err) {
      staged.abort();
      throw err;
    }
  }
  return staged.commit();
}

/** A registry written to its temporary folder and not yet swapped in (stageRegistry). */
export interface StagedRegistry {
  /** The temporary folder (`<outDir>/.<catalog>.tmp-<pid>-<stamp>`); undefined when the registry is already up to date. */
  tmp: string | undefined;
  /** Swaps the temporary folder in (renames only) and returns the report. */
  commit(): WriteReport;
  /** Removes the temporary folder; the registry stays as it was. Safe to call more than once, and after commit. */
  abort(): void;
}

/**
 * The first half of writeRegistry: renders the catalog into a temporary sibling folder (after sweeping what
 * interrupted imports left in `outDir`, sweepInterruptedWrites). Nothing a reader of `<outDir>/<catalog>/` sees
 * changes until `commit()`; `abort()` leaves no trace. An up-to-date registry writes nothing (`tmp` undefined).
 * `before` is the catalog's operations as the caller already read them (previousOperations, after its own sweep);
 * without it they are read here.
 */
export function stageRegistry(result: ImportResult, outDir: string, before?: PreviousOperations): StagedRegistry {
  // first: a catalog folder an interrupted swap left under an .old- name is back before it is compared
  sweepInterruptedWrites(outDir);
  const name = result.meta.name;
  const dir = join(outDir, name);
  const files = renderRegistry(result);
  const hadPrevious = existsSync(join(dir, 'catalog.json'));
  const check = checkRegistry(result, outDir);
  const changes = hadPrevious ? diffOperations(before ?? readOperations(dir), result) : [];
  let serversChanged: WriteReport['serversChanged'];
  let previous: CatalogMeta | undefined;
  if (hadPrevious) {
    try {
      const old = JSON.parse(readFileSync(join(dir, 'catalog.json'), 'utf8')) as CatalogMeta;
      previous = old;
      const before = serverUrls(old.servers);
      const after = serverUrls(result.meta.servers);
      if (before.join('\n') !== after.join('\n')) serversChanged = { before, after };
    } catch {
      /* unreadable old catalog.json: nothing to compare */
    }
  }
  const report = (unchanged: boolean): WriteReport => ({ dir, hadPrevious, changes, unchanged, ...(serversChanged ? { serversChanged } : {}) });
  if (check.upToDate) return { tmp: undefined, commit: () => report(true), abort: () => {} };
  if (hadPrevious) {
    const facts = (m: CatalogMeta | undefined) => ({ version: m?.version ?? '', sourceSha256: m?.sourceSha256 ?? '', operationCount: m?.operationCount ?? 0 });
    const changesFile: ChangesFile = { before: facts(previous), after: facts(result.meta), domains: changes, ...(serversChanged ? { serversChanged } : {}) };
    files.set(CHANGES_FILE, json(changesFile));
  }

  if (existsSync(join(dir, SETTINGS_FILE))) files.set(SETTINGS_FILE, readFileSync(join(dir, SETTINGS_FILE), 'utf8'));

  const stamp = `${process.pid}-${Date.now().toString(36)}`;
  const tmp = join(outDir, `.${name}.tmp-${stamp}`);
  const old = join(outDir, `.${name}.old-${stamp}`);
  try {
    makeDirs(outDir);
    mkdirSync(tmp);
    mkdirSync(join(tmp, 'operations'));
    for (const [rel, text] of files) writeFileSync(join(tmp, ...rel.split('/')), text);
  } catch (cause) {
    cleanUp(tmp);
    throw new AppError('INTERNAL', `import: cannot write the registry under ${outDir} (${(cause as Error).message}); check permissions`, { cause });
  }
  let committed: WriteReport | undefined;
  return {
    tmp,
    abort: () => {
      if (committed === undefined) cleanUp(tmp);
    },
    commit: () => {
      if (committed !== undefined) return committed;
      let moved = false;
      try {
        if (existsSync(dir)) {
          renameSync(dir, old);
          moved = true;
        }
        renameSync(tmp, dir);
      } catch (cause) {
        if (moved && !existsSync(dir)) renameSync(old, dir);
        cleanUp(tmp);
        throw new AppError('INTERNAL', `import: cannot replace ${dir} (${(cause as Error).message}); the previous registry is unchanged`, { cause });
      }
      if (moved) rmSync(old, { recursive: true, force: true });
      committed = report(false);
      return committed;
    },
  };
}

/** `.<catalog>.tmp-<pid>-<stamp>` / `.<catalog>.old-<pid>-<stamp>`: the folders stageRegistry and commit make. */
const WRITE_FOLDER = /^\.(.+)\.(tmp|old)-(\d+)-[0-9a-z]+$/;

/** Whether process `pid` is alive here (one we may not signal is alive too). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Cleans up after imports into `outDir` that were killed mid-write (SIGKILL, a crash, a power cut; the CLI removes
 * its own temporary folder on Ctrl-C): their `.<catalog>.tmp-<pid>-*` folders are removed, and so are their
 * `.old-` folders, unless the catalog folder itself is gone (killed between the two renames of the swap), when the
 * `.old-` folder is the previous registry and is put back. Only folders of processes that are no longer running are
 * touched: a concurrent import's are its own. Returns one line per folder handled, for the caller to report.
 */
export function sweepInterruptedWrites(outDir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(outDir);
  } catch {
    return []; // no out folder yet: nothing was left there
  }
  const done: string[] = [];
  // .old- first: a catalog folder put back is then there when its .tmp- sibling is judged
  const found = entries.map((e) => ({ e, m: WRITE_FOLDER.exec(e) })).filter((x) => x.m !== null && Number(x.m[3]) !== process.pid && !isAlive(Number(x.m[3])));
  found.sort((a, b) => (a.m![2] === b.m![2] ? (a.e < b.e ? -1 : 1) : a.m![2] === 'old' ? -1 : 1));
  for (const { e, m } of found) {
    const path = join(outDir, e);
    const catalog = join(outDir, m![1]!);
    try {
      if (m![2] === 'old' && !existsSync(catalog)) {
        renameSync(path, catalog);
        done.push(`put back ${m![1]} from ${e} (an import was stopped in the middle of replacing it)`);
        continue;
      }
      rmSync(path, { recursive: true, force: true });
      done.push(`removed ${e} (left by an import that was stopped)`);
    } catch {
      // not ours to fix (permissions): the folder stays, and the catalog listings pass over dot-folders anyway
    }
  }
  return done;
}

/**
 * Makes `dir` and its missing parents one level at a time. Node's recursive mkdir loops forever, inside one
 * synchronous call, where a folder answers ENOENT for every new child (`/proc`); one level at a time fails instead.
 */
function makeDirs(dir: string): void {
  const missing: string[] = [];
  for (let d = resolve(dir); !existsSync(d); d = dirname(d)) {
    missing.unshift(d);
    if (dirname(d) === d) break;
  }
  for (const d of missing) mkdirSync(d);
}

/** Removes a temporary folder; a failure to clean up never hides the error being reported. */
function cleanUp(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true });
  } catch {
    // the error that brought us here is the one to report
  }
}

export interface CheckReport {
  upToDate: boolean;
  /** Files that would be created, deleted or changed (relative to the catalog folder). */
  missing: string[];
  extra: string[];
  changed: string[];
}

/** Compares the rendered catalog with `<outDir>/<catalog>/` on disk without writing anything. */
export function checkRegistry(result: ImportResult, outDir: string): CheckReport {
  const dir = join(outDir, result.meta.name);
  const files = renderRegistry(result);
  // changes.json is history (what the last re-import changed) and settings.json is written by hand, neither is
  // derived from the spec: never stale.
  const onDisk = new Set(listFiles(dir).filter((f) => !DERIVED_FILES.has(f) && f !== CHANGES_FILE && f !== SETTINGS_FILE));
  const missing: string[] = [];
  const changed: string[] = [];
  for (const [rel, text] of files) {
    if (!onDisk.has(rel)) missing.push(rel);
    else if (readFileSync(join(dir, ...rel.split('/')), 'utf8') !== text) changed.push(rel);
    onDisk.delete(rel);
  }
  const extra = [...onDisk].sort();
  return { upToDate: missing.length === 0 && changed.length === 0 && extra.length === 0, missing, extra, changed };
}
