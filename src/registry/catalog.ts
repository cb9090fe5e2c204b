// Loads one generated catalog (registry/<name>/) into memory and looks operations up by name.
// Run time only: reads JSON written by src/importer, never touches a spec or swagger-parser.
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
  /** All operations, sorted by name. */
  operations: Operation[];
  byName: Map<string, Operation>;
  /** Operations this deployment filtered out at serve time (`serve --exclude-tools` etc.); absent when none. */
  filteredOut?: number;
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
 * Reads registry/<catalog>/catalog.json and operations/*.json. Throws AppError REGISTRY_NOT_FOUND or
 * REGISTRY_INVALID with the path and the command that fixes it.
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
  let meta: CatalogMeta;
  try {
    meta = JSON.parse(readFileSync(metaPath, 'utf8')) as CatalogMeta;
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
  const operations: Operation[] = [];
  for (const file of readdirSync(opsDir).filter((f) => f.endsWith('.json')).sort()) {
    const path = join(opsDir, file);
    try {
      operations.push(...(JSON.parse(readFileSync(path, 'utf8')) as Operation[]));
    } catch (cause) {
      throw new AppError('REGISTRY_INVALID', `catalog: ${path} is not valid JSON; re-run the import`, { cause });
    }
  }
  operations.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const skipped = readSkipped(join(abs, 'diagnostics.json'));
  const byName = new Map<string, Operation>();
  for (const op of operations) {
    if (byName.has(op.name)) {
      throw new AppError('REGISTRY_INVALID', `catalog: operation name ${JSON.stringify(op.name)} appears twice in ${abs}`);
    }
    byName.set(op.name, op);
  }
  return { dir: abs, meta, operations, byName, skipped };
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
