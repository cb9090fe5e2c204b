// Loads one generated catalog (registry/<name>/) into memory and looks operations up by name: catalog.json at
// once, the operations on first use — from the files as they were when it was loaded (each file's size,
// modification time and inode are pinned then; a file that changed since is never mixed in: REGISTRY_STALE, until a
// reload refuses the registry now on disk: then REGISTRY_INVALID saying why and what repairs it). The files a version
// found it cannot serve are listed for /readyz (`unservable`).
// Run time only: reads JSON written by src/importer, never touches a spec.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '../errors.js';
import type { CatalogMeta, Diagnostic, Operation } from '../types.js';
import { hashFiles, operationFiles, pin, readWithStat, sameFile, samePin, statSignatureOf, type Pinned } from './files.js';
import { checkLayout, checkOperationsFile, checkTotal, disagree, type IntegrityProblem } from './integrity.js';

export interface Catalog {
  /** Absolute path of the catalog folder. */
  dir: string;
  meta: CatalogMeta;
  /**
   * Operations of the spec that the import skipped (diagnostics.json, code OPERATION_SKIPPED), with the
   * pointer and reason: a registry that lacks part of its API says so instead of serving it silently.
   */
  skipped: Array<{ pointer: string; message: string }>;
  /** All operations, sorted by name (read from operations/*.json on first access). */
  operations: Operation[];
  byName: Map<string, Operation>;
  /** Operations this deployment filtered out at serve time (`serve --exclude-tools` etc.); absent when none. */
  filteredOut?: number;
  /**
   * sha256 (hex) of the registry content: catalog.json and every operations file as they are when first asked
   * (see {@link registryContentHash}); computed from the bytes, without parsing them. A search snapshot is
   * trusted only for the content it was built from. Absent for catalogs assembled in memory.
   */
  contentHash?: string;
  /**
   * The operations of one domain, read from its own file (operations/<domain>.json) without reading the others,
   * so that describe and execute never wait for the whole registry; undefined when the registry has no such file
   * (the caller then looks in `operations`). Absent for catalogs assembled in memory.
   */
  operationsInDomain?(domain: string): Operation[] | undefined;
  /**
   * sha256 (hex) over each registry file's path, size and modification time (ns), read with stat alone: equal
   * values mean the files were not touched since (see src/registry/snapshot.ts). Absent in memory.
   */
  statSignature?(): string;
  /** The operations files parsed so far (names under operations/), for the start-up trace and tests. */
  parsedFiles?(): string[];
  /**
   * The operations files this version found it cannot serve (their domains fail), re-checked now, for /readyz: one
   * changed on disk since it was loaded (REGISTRY_STALE: a reload follows), or one damaged, unreadable or refused by
   * the reload that followed (REGISTRY_INVALID: an operator must repair the registry). A file that changed again
   * since it was judged (repaired, or a writer still at it) asks for a reload once more (`onChanged`).
   */
  unservable?(): FileProblem[];
  /**
   * A reload of this registry was refused (`reason`): the files this version found changed on disk and that are still
   * as the reload read them are answered from now on as refused (REGISTRY_INVALID with the reason and the fix), no
   * longer as a new version about to be served ("retry in a few seconds"), which it will not be until someone acts.
   */
  reloadRefused?(reason: string): void;
}

/** An operations file a version cannot serve: its path, the error its domain's calls get, and that error's text. */
export interface FileProblem {
  file: string;
  code: string;
  reason: string;
}

export interface LoadCatalogOptions {
  /**
   * Called when a file read after loading (an operations file on first use, or for the content hash) is no longer
   * the one the catalog was loaded with (a re-import replaced it): the caller loads the new version.
   */
  onChanged?: (dir: string) => void;
}

/** The package root (where package.json, registry/ and openapi/ live), from src/ or dist/. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    dir = dirname(dir);
  }
  throw new AppError('INTERNAL', 'catalog: cannot find the package root (no package.json above the module)');
}

/** The embedded default catalog: registry/github in the package. */
export function defaultCatalogDir(): string {
  return join(packageRoot(), 'registry', 'github');
}

/**
 * Opens registry/<catalog>/: reads catalog.json (and the skipped operations of diagnostics.json) now, and
 * operations/*.json on first use: hashed for `contentHash`, parsed for `operations`/`byName` (all files) or
 * `operationsInDomain` (one file) — a server answers initialize, tools/list and a search without parsing them. Throws AppError REGISTRY_NOT_FOUND or REGISTRY_INVALID with the path
 * and the command that fixes it (now for catalog.json, on that first access for an operations file). Files that
 * disagree (integrity.ts: counts, domains, file layout) are REGISTRY_INVALID naming both files and both counts —
 * unless the registry changed on disk while it was read (a re-import swapping the folder in): then it is read
 * again (at load), or REGISTRY_STALE with `onChanged` (later), never taken for a broken registry.
 */
export function loadCatalog(dir: string, options: LoadCatalogOptions = {}): Catalog {
  const abs = resolve(dir);
  for (let attempt = 1; ; attempt++) {
    const opened = openCatalog(abs, options);
    if (opened !== MOVED) return opened;
    if (attempt === LOAD_ATTEMPTS) {
      throw new AppError('REGISTRY_STALE', `catalog: ${abs} kept changing on disk while it was loaded (${LOAD_ATTEMPTS} reads); load it again once the writer is done`);
    }
  }
}

/** Reads of a registry that changed on disk while loadCatalog read it, before it gives up (REGISTRY_STALE). */
const LOAD_ATTEMPTS = 3;
/** openCatalog's answer when the registry was replaced while it was read: read it again. */
const MOVED = Symbol('registry replaced while read');

/**
 * One read of the catalog at `abs`, or MOVED when what it read does not belong together because the registry was
 * replaced meanwhile (a re-import swaps the folder; a writer is still at it): a failure that comes with a
 * catalog.json no longer the file read, or files that disagree while they are changing.
 */
function openCatalog(abs: string, options: LoadCatalogOptions): Catalog | typeof MOVED {
  const metaPath = join(abs, 'catalog.json');
  if (!existsSync(metaPath)) throw new AppError('REGISTRY_NOT_FOUND', missingCatalogMessage(abs));
  let metaBytes: Buffer;
  let metaPin: Pinned;
  try {
    [metaBytes, metaPin] = readWithStat(metaPath);
  } catch (cause) {
    // there a moment ago: replaced (or removed, which the next read says)
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return MOVED;
    throw new AppError('REGISTRY_INVALID', `catalog: ${metaPath} cannot be read (${String((cause as NodeJS.ErrnoException).code)})`, { cause });
  }
  try {
    return readCatalog(abs, metaBytes, metaPin, options);
  } catch (err) {
    if (err === MOVED || !sameFile(metaPath, metaPin)) return MOVED;
    throw err;
  }
}

/** The catalog whose catalog.json is `metaBytes` (read with `metaPin`); throws MOVED as openCatalog describes. */
function readCatalog(abs: string, metaBytes: Buffer, metaPin: Pinned, options: LoadCatalogOptions): Catalog {
  const metaPath = join(abs, 'catalog.json');
  let meta: CatalogMeta;
  try {
    meta = JSON.parse(metaBytes.toString('utf8')) as CatalogMeta;
  } catch (cause) {
    throw new AppError('REGISTRY_INVALID', `catalog: ${metaPath} is not valid JSON; re-run the import`, { cause });
  }
  if (meta.formatVersion !== 1) {
    throw new AppError(
      'REGISTRY_INVALID',
      `catalog: ${metaPath} has format version ${String(meta.formatVersion)}, this build reads 1; re-run the import`,
    );
  }
  const opsDir = join(abs, 'operations');
  if (!existsSync(opsDir)) {
    throw new AppError('REGISTRY_INVALID', `catalog: ${opsDir} is missing; re-run the import`);
  }
  const skipped = readSkipped(join(abs, 'diagnostics.json'));
  // The operations files as they are now: what this catalog is. Read later, each must still be that file.
  const pinned = new Map<string, Pinned>();
  for (const f of operationFiles(abs)) pinned.set(f, pin(statSync(join(opsDir, f), { bigint: true })));
  const files = [...pinned.keys()];
  // Whether the registry on disk is still the one read: catalog.json, the file list and every pinned file. Asked
  // only when the files disagree, to tell a registry being replaced from a broken one.
  const unchanged = (): boolean => {
    if (!sameFile(metaPath, metaPin)) return false;
    try {
      const now = operationFiles(abs);
      if (now.length !== files.length || now.some((f, i) => f !== files[i])) return false;
    } catch {
      return false;
    }
    return files.every((f) => sameFile(join(opsDir, f), pinned.get(f) as Pinned));
  };
  const layout = checkLayout(abs, meta, files);
  if (layout !== undefined) {
    if (unchanged()) throw disagree(abs, meta, layout);
    // a re-import swapped the folder (or a writer is still at it) between our reads: read it again
    throw MOVED;
  }
  let changed = false;
  // What this version found it cannot serve, by operations file, with the file's state then (stateOf): changed on
  // disk (stale), damaged or unreadable. A file found again in the same state gets the same answer; one whose state
  // changed since is judged again (a repair asks for a reload, which serves the repaired registry).
  const problems = new Map<string, { state: string; error: AppError }>();
  const found = (file: string, state: string, error: AppError): AppError => {
    problems.set(file, { state, error });
    return error;
  };
  const readPinned = (file: string): Buffer => {
    const path = join(opsDir, file);
    let bytes: Buffer;
    let now: Pinned;
    try {
      [bytes, now] = readWithStat(path);
    } catch (cause) {
      const code = (cause as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') throw changedOnDisk(file, 'gone');
      const error = new AppError('REGISTRY_INVALID', `catalog: ${path} cannot be read (${String(code)}); check its permissions, or re-run the import`, { cause });
      throw found(file, stateOf(path), error);
    }
    if (!samePin(now, pinned.get(file) as Pinned)) throw changedOnDisk(file, pinKey(now));
    return bytes;
  };
  // An operations file no longer the one pinned: a new version on its way (a re-import) until a reload says otherwise.
  const changedOnDisk = (file: string, state: string): AppError => {
    const known = problems.get(file);
    if (known !== undefined && known.state === state) return known.error;
    // the first change this version meets, or a file judged before that changed again (repaired?): reload
    if (known !== undefined) changed = false;
    return found(file, state, stale(join(opsDir, file)));
  };
  const stale = (path: string): AppError => {
    if (!changed) {
      changed = true;
      options.onChanged?.(abs);
    }
    return new AppError(
      'REGISTRY_STALE',
      `catalog: ${path} changed on disk after this catalog was loaded (a re-import?); the server loads the new version: retry in a few seconds`,
    );
  };
  // What an operator runs to repair this registry (every refusal of a file says it).
  const reimport = `re-run its import (\`api-catalog import <spec> --name ${meta.name} --out ${dirname(abs)}\`) or put the previous files back; it is served again without a restart`;
  // Files that disagree: refused, unless the registry changed since it was loaded (then it is the new version to load).
  const refuse = (problem: IntegrityProblem): AppError => (unchanged() ? disagree(abs, meta, problem) : stale(abs));
  // Each operations file is parsed once, whoever asks first: one domain's (describe, execute) or all of them.
  const parsed = new Map<string, Operation[]>();
  const parseFile = (file: string): Operation[] => {
    let ops = parsed.get(file);
    if (ops === undefined) {
      const path = join(opsDir, file);
      const bytes = readPinned(file);
      // the pinned file itself is damaged: its domain is refused (and /readyz says so) until the registry is repaired
      const damaged = (err: AppError): AppError => (err.code === 'REGISTRY_INVALID' ? found(file, pinKey(pinned.get(file) as Pinned), err) : err);
      try {
        ops = JSON.parse(bytes.toString('utf8')) as Operation[];
      } catch (cause) {
        if ((cause as NodeJS.ErrnoException).code !== undefined) {
          throw damaged(new AppError('REGISTRY_INVALID', `catalog: ${path} cannot be read (${String((cause as NodeJS.ErrnoException).code)}); re-run the import`, { cause }));
        }
        throw damaged(new AppError('REGISTRY_INVALID', `catalog: ${path} is not valid JSON; re-run the import`, { cause }));
      }
      if (!Array.isArray(ops)) throw damaged(new AppError('REGISTRY_INVALID', `catalog: ${path} is not a list of operations; re-run the import`));
      const problem = checkOperationsFile(abs, meta, file, ops);
      if (problem !== undefined) throw damaged(refuse(problem));
      parsed.set(file, ops);
    }
    return ops;
  };
  let loaded: { operations: Operation[]; byName: Map<string, Operation> } | undefined;
  const load = () => {
    if (loaded !== undefined) return loaded;
    const all = files.map(parseFile);
    const total = checkTotal(abs, meta, all.reduce((n, ops) => n + ops.length, 0));
    if (total !== undefined) throw refuse(total);
    return (loaded = indexOperations(abs, all));
  };
  let contentHash: string | undefined;
  return {
    dir: abs,
    meta,
    skipped,
    get operations() {
      return load().operations;
    },
    get byName() {
      return load().byName;
    },
    get contentHash() {
      // hashed from the files' bytes, not parsed: checking a search snapshot costs a read, not a JSON.parse
      return (contentHash ??= hashFiles(metaBytes, files, readPinned));
    },
    operationsInDomain(domain: string) {
      if (loaded !== undefined) return loaded.operations.filter((op) => op.domain === domain);
      const file = `${domain}.json`;
      // a domain name that is not a plain file name, or a registry laid out otherwise: the caller reads them all
      if (domain === '' || domain !== basename(domain) || !pinned.has(file)) return undefined;
      return parseFile(file);
    },
    statSignature() {
      // of the files as loaded (what the lazily read files are checked against), not as they are now
      return statSignatureOf([['catalog.json', metaPin], ...files.map((f): [string, Pinned] => [`operations/${f}`, pinned.get(f) as Pinned])]);
    },
    parsedFiles() {
      return [...parsed.keys()].sort();
    },
    unservable() {
      const out: FileProblem[] = [];
      for (const [file, known] of problems) {
        // (a file parsed since, by a read that raced its change, is served: nothing to report)
        if (parsed.has(file)) continue;
        const state = stateOf(join(opsDir, file));
        const error = state === known.state ? known.error : changedOnDisk(file, state);
        out.push({ file: join(opsDir, file), code: error.code, reason: error.message });
      }
      return out;
    },
    reloadRefused(reason: string) {
      for (const [file, known] of problems) {
        // only a change this version could not serve; one that changed again since the reload read it is not judged yet
        if (known.error.code !== 'REGISTRY_STALE' || stateOf(join(opsDir, file)) !== known.state) continue;
        const path = join(opsDir, file);
        const what = known.state === 'gone' ? 'is gone' : 'changed on disk';
        known.error = new AppError(
          'REGISTRY_INVALID',
          `catalog: ${path} ${what} after this version was loaded, and the reload of the registry now on disk was refused (${reason.slice(0, 600)}); ` +
            `its domain cannot be served until the registry is repaired: ${reimport}`,
        );
      }
    },
  };
}

/** A file's identity as pinned (size, mtime, ctime, inode), as one string. */
function pinKey(p: Pinned): string {
  return `${p.size}:${p.mtimeNs}:${p.ctimeNs}:${p.ino}`;
}

/** A file's state now: its identity, 'gone', or that it cannot be stat'ed (with the code). Stat only. */
function stateOf(path: string): string {
  try {
    return pinKey(pin(statSync(path, { bigint: true })));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? 'gone' : `unreadable:${String(code)}`;
  }
}

/**
 * Why `abs` is no catalog, and what to pass instead. `import --out <dir>` writes <dir>/<catalog>/, so the
 * likeliest mistake is naming that registry folder: then the catalogs inside it are the answer.
 */
function missingCatalogMessage(abs: string): string {
  if (!existsSync(abs)) {
    // every other list option is comma-separated, the registry folders are not (`:`, like PATH): say so where it shows
    if (abs.includes(',')) {
      return `catalog: ${abs} does not exist; to serve several folders, separate folders with \`:\` (API_CATALOG_REGISTRY=<dir>:<dir>) or repeat --registry <dir>, not with commas`;
    }
    return `catalog: ${abs} does not exist; build a catalog with \`api-catalog import <spec> --out <registry dir>\`, then pass <registry dir>/<catalog>`;
  }
  // a spec given where its catalog belongs (`--registry openapi.json`): the catalog is what importing it makes
  if (statSync(abs, { throwIfNoEntry: false })?.isFile()) {
    return `catalog: ${abs} is a file, not a catalog folder; if it is an OpenAPI spec, import it first (\`api-catalog import ${abs} --out <registry dir>\`), then pass <registry dir>/<catalog>`;
  }
  let inside: string[] = [];
  try {
    // a dot-folder is no catalog: an import writes its next version into `.<catalog>.tmp-*` and swaps it in
    inside = readdirSync(abs, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.') && existsSync(join(abs, e.name, 'catalog.json')))
      .map((e) => e.name)
      .sort();
  } catch {
    // Not a readable folder: the plain message below says what is missing.
  }
  if (inside.length > 0) {
    const shown = inside.slice(0, 5).map((name) => join(abs, name));
    const more = inside.length > 5 ? ` (and ${inside.length - 5} more)` : '';
    return (
      `catalog: ${abs} is a registry folder, not a catalog: it holds ${inside.length === 1 ? 'the catalog' : 'the catalogs'} ` +
      `${inside.slice(0, 5).join(', ')}${more}; pass ${shown.length === 1 ? 'its folder' : 'one folder each'}: ${shown.join(', ')}`
    );
  }
  return `catalog: no catalog.json in ${abs}; build one with \`api-catalog import <spec> --out <registry dir>\`, then pass <registry dir>/<catalog>`;
}

/** All operations sorted by name, and by name; REGISTRY_INVALID when a name appears twice. */
function indexOperations(abs: string, files: readonly Operation[][]): { operations: Operation[]; byName: Map<string, Operation> } {
  const operations = files.flat();
  operations.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const byName = new Map<string, Operation>();
  for (const op of operations) {
    if (byName.has(op.name)) {
      throw new AppError('REGISTRY_INVALID', `catalog: operation name ${JSON.stringify(op.name)} appears twice in ${abs}`);
    }
    byName.set(op.name, op);
  }
  return { operations, byName };
}

/** The OPERATION_SKIPPED entries of a diagnostics.json (absent or unreadable file: none). */
function readSkipped(path: string): Catalog['skipped'] {
  if (!existsSync(path)) return [];
  try {
    const all = JSON.parse(readFileSync(path, 'utf8')) as Diagnostic[];
    return all.filter((d) => d.code === 'OPERATION_SKIPPED').map((d) => ({ pointer: d.pointer, message: d.message }));
  } catch (cause) {
    throw new AppError('REGISTRY_INVALID', `catalog: ${path} is not valid JSON; re-run the import`, { cause });
  }
}
