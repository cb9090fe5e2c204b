// Loads one generated catalog (registry/<name>/) into memory and looks operations up by name: catalog.json at
// once, the operations on first use. Run time only: reads JSON written by src/importer, never touches a spec.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
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
   * sha256 (hex) of the registry content the operations were read from: catalog.json and every operations file
   * (see {@link registryContentHash}). A search snapshot is trusted only for the content it was built from.
   * Absent for catalogs assembled in memory.
   */
  contentHash?: string;
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
 * operations/*.json on the first access to `operations`, `byName` or `contentHash` — a server answers
 * initialize and tools/list without them. Throws AppError REGISTRY_NOT_FOUND or REGISTRY_INVALID with the path
 * and the command that fixes it (now for catalog.json, on that first access for an operations file).
 */
export function loadCatalog(dir: string): Catalog {
  const abs = resolve(dir);
  const metaPath = join(abs, 'catalog.json');
  if (!existsSync(metaPath)) {
    throw new AppError(
      'REGISTRY_NOT_FOUND',
      `catalog: no catalog.json in ${abs}; build one with \`api-catalog import <spec> --out <registry dir>\``,
    );
  }
  const metaBytes = readFileSync(metaPath);
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
  let loaded: { operations: Operation[]; byName: Map<string, Operation>; contentHash: string } | undefined;
  const load = () => (loaded ??= readOperations(abs, metaBytes));
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
      return load().contentHash;
    },
  };
}

/** The operations files of a registry folder, in the order they are read and hashed. */
function operationFiles(abs: string): string[] {
  return readdirSync(join(abs, 'operations')).filter((f) => f.endsWith('.json')).sort();
}

/** Feeds one file into the registry hash: its relative path, length and bytes (so file boundaries count). */
function hashFile(hash: ReturnType<typeof createHash>, rel: string, bytes: Buffer): void {
  hash.update(`${rel}\0${bytes.length}\0`);
  hash.update(bytes);
}

/**
 * sha256 (hex) of a registry's content: catalog.json, then operations/*.json in name order, each as path, length
 * and bytes. The same value as {@link Catalog.contentHash} of the loaded catalog, computed from the files alone.
 */
export function registryContentHash(dir: string): string {
  const abs = resolve(dir);
  const hash = createHash('sha256');
  hashFile(hash, 'catalog.json', readFileSync(join(abs, 'catalog.json')));
  for (const f of operationFiles(abs)) hashFile(hash, `operations/${f}`, readFileSync(join(abs, 'operations', f)));
  return hash.digest('hex');
}

function readOperations(abs: string, metaBytes: Buffer): { operations: Operation[]; byName: Map<string, Operation>; contentHash: string } {
  const hash = createHash('sha256');
  hashFile(hash, 'catalog.json', metaBytes);
  const operations: Operation[] = [];
  for (const file of operationFiles(abs)) {
    const path = join(abs, 'operations', file);
    const bytes = readFileSync(path);
    hashFile(hash, `operations/${file}`, bytes);
    try {
      for (const op of JSON.parse(bytes.toString('utf8')) as Operation[]) operations.push(op);
    } catch (cause) {
      throw new AppError('REGISTRY_INVALID', `catalog: ${path} is not valid JSON; re-run the import`, { cause });
    }
  }
  operations.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const byName = new Map<string, Operation>();
  for (const op of operations) {
    if (byName.has(op.name)) {
      throw new AppError('REGISTRY_INVALID', `catalog: operation name ${JSON.stringify(op.name)} appears twice in ${abs}`);
    }
    byName.set(op.name, op);
  }
  return { operations, byName, contentHash: hash.digest('hex') };
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
