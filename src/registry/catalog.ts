// Loads one generated catalog (registry/<name>/) into memory and looks operations up by name: catalog.json at
// once, the operations on first use — from the files as they were when it was loaded (each file's size,
// modification time and inode are pinned then; a file that changed since is never mixed in: REGISTRY_STALE).
// Run time only: reads JSON written by src/importer, never touches a spec.
import type { Hash } from 'node:crypto';
import { createSha256 } from '../crypto.js';
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { distance } from 'fastest-levenshtein';
import { AppError } from '../errors.js';
import type { CatalogMeta, Diagnostic, Operation } from '../types.js';

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
}

export interface LoadCatalogOptions {
  /**
   * Called when a file read after loading (an operations file on first use, or for the content hash) is no longer
   * the one the catalog was loaded with (a re-import replaced it): the caller loads the new version.
   */
  onChanged?: (dir: string) => void;
}

/** A file's identity when the catalog was loaded: size, modification time (ns) and inode. */
interface Pinned {
  size: bigint;
  mtimeNs: bigint;
  ino: bigint;
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
 * and the command that fixes it (now for catalog.json, on that first access for an operations file).
 */
export function loadCatalog(dir: string, options: LoadCatalogOptions = {}): Catalog {
  const abs = resolve(dir);
  const metaPath = join(abs, 'catalog.json');
  if (!existsSync(metaPath)) throw new AppError('REGISTRY_NOT_FOUND', missingCatalogMessage(abs));
  const [metaBytes, metaPin] = readWithStat(metaPath);
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
  let changed = false;
  const readPinned = (file: string): Buffer => {
    const path = join(opsDir, file);
    let bytes: Buffer;
    let now: Pinned;
    try {
      [bytes, now] = readWithStat(path);
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code === 'ENOENT') throw stale(path);
      throw new AppError('REGISTRY_INVALID', `catalog: ${path} cannot be read (${String((cause as NodeJS.ErrnoException).code)}); re-run the import`, { cause });
    }
    const want = pinned.get(file) as Pinned;
    if (now.size !== want.size || now.mtimeNs !== want.mtimeNs || now.ino !== want.ino) throw stale(path);
    return bytes;
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
  // Each operations file is parsed once, whoever asks first: one domain's (describe, execute) or all of them.
  const parsed = new Map<string, Operation[]>();
  const parseFile = (file: string): Operation[] => {
    let ops = parsed.get(file);
    if (ops === undefined) {
      const path = join(opsDir, file);
      const bytes = readPinned(file);
      try {
        ops = JSON.parse(bytes.toString('utf8')) as Operation[];
      } catch (cause) {
        if ((cause as NodeJS.ErrnoException).code !== undefined) {
          throw new AppError('REGISTRY_INVALID', `catalog: ${path} cannot be read (${String((cause as NodeJS.ErrnoException).code)}); re-run the import`, { cause });
        }
        throw new AppError('REGISTRY_INVALID', `catalog: ${path} is not valid JSON; re-run the import`, { cause });
      }
      if (!Array.isArray(ops)) throw new AppError('REGISTRY_INVALID', `catalog: ${path} is not a list of operations; re-run the import`);
      parsed.set(file, ops);
    }
    return ops;
  };
  let loaded: { operations: Operation[]; byName: Map<string, Operation> } | undefined;
  const load = () => (loaded ??= indexOperations(abs, files.map(parseFile)));
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
  };
}

/** The operations files of a registry folder, in the order they are read and hashed. */
/**
 * Why `abs` is no catalog, and what to pass instead. `import --out <dir>` writes <dir>/<catalog>/, so the
 * likeliest mistake is naming that registry folder: then the catalogs inside it are the answer.
 */
function missingCatalogMessage(abs: string): string {
  if (!existsSync(abs)) {
    return `catalog: ${abs} does not exist; build a catalog with \`api-catalog import <spec> --out <registry dir>\`, then pass <registry dir>/<catalog>`;
  }
  let inside: string[] = [];
  try {
    inside = readdirSync(abs, { withFileTypes: true })
      .filter((e) => e.isDirectory() && existsSync(join(abs, e.name, 'catalog.json')))
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

function operationFiles(abs: string): string[] {
  return readdirSync(join(abs, 'operations')).filter((f) => f.endsWith('.json')).sort();
}

/** Feeds one file into the registry hash: its relative path, length and bytes (so file boundaries count). */
function hashFile(hash: Hash, rel: string, bytes: Buffer): void {
  hash.update(`${rel}\0${bytes.length}\0`);
  hash.update(bytes);
}

/** The registry hash from catalog.json's bytes and the operations files read with `read`. */
function hashFiles(metaBytes: Buffer, files: readonly string[], read: (file: string) => Buffer): string {
  const hash = createSha256();
  hashFile(hash, 'catalog.json', metaBytes);
  for (const f of files) hashFile(hash, `operations/${f}`, read(f));
  return hash.digest('hex');
}

/** The registry hash from catalog.json's bytes and the operations files as they are now. */
function hashRegistry(abs: string, metaBytes: Buffer): string {
  return hashFiles(metaBytes, operationFiles(abs), (f) => readFileSync(join(abs, 'operations', f)));
}

/** Catalog.statSignature: each file's path, size and mtime (ns), in hash order (the inode is not part of it). */
function statSignatureOf(entries: ReadonlyArray<[string, Pinned]>): string {
  const hash = createSha256();
  for (const [rel, st] of entries) hash.update(`${rel}\0${st.size}\0${st.mtimeNs}\n`);
  return hash.digest('hex');
}

function pin(st: { size: bigint; mtimeNs: bigint; ino: bigint }): Pinned {
  return { size: st.size, mtimeNs: st.mtimeNs, ino: st.ino };
}

/** A file's bytes and its identity, both from one open file (a rename in between cannot mix two files). */
function readWithStat(path: string): [Buffer, Pinned] {
  const fd = openSync(path, 'r');
  try {
    const st = pin(fstatSync(fd, { bigint: true }));
    return [readFileSync(fd), st];
  } finally {
    closeSync(fd);
  }
}

/**
 * sha256 (hex) of a registry's content: catalog.json, then operations/*.json in name order, each as path, length
 * and bytes. The same value as {@link Catalog.contentHash} of the loaded catalog, computed from the files alone.
 */
export function registryContentHash(dir: string): string {
  const abs = resolve(dir);
  return hashRegistry(abs, readFileSync(join(abs, 'catalog.json')));
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

/**
 * Closest names to `query` for "did you mean" messages: exact case-insensitive matches first, then by
 * edit distance (bounded so that unrelated names are not suggested), then substring matches.
 */
export function suggestNames(query: string, candidates: readonly string[], max = 3): string[] {
  const q = query.toLowerCase();
  const scored: Array<{ name: string; score: number }> = [];
  for (const name of candidates) {
    const n = name.toLowerCase();
    let score: number;
    if (n === q) score = 0;
    else {
      const d = distance(q, n);
      const limit = Math.max(2, Math.floor(Math.max(q.length, n.length) * 0.4));
      if (d <= limit) score = d;
      else if (q.length >= 3 && (n.includes(q) || q.includes(n))) score = limit + 1;
      else continue;
    }
    scored.push({ name, score });
  }
  scored.sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // Nothing close is an answer too: a far-fetched "did you mean" sends an agent the wrong way.
  return scored.slice(0, max).map((s) => s.name);
}
