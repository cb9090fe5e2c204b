// A registry's files must agree with each other: catalog.json's operation count with its domains' counts, one
// operations/<domain>.json per domain it counts operations in (and none for a domain it does not list), each such
// file holding that many operations, all of its own domain. The checks here are pure: they look at what the loader
// (catalog.ts) already read — catalog.json and the file list at load, an operations file when it is parsed — and
// return the problem in words naming both files and both counts, or nothing (disagree() makes it the error). They
// never read a file.
import { basename, dirname, join } from 'node:path';
import { AppError } from '../errors.js';
import type { CatalogMeta, Operation } from '../types.js';

/** What disagrees, for the message and AppError details: the files and the counts each one claims. */
export interface IntegrityProblem {
  /** The sentence that names the files and counts (no fix: the caller adds it). */
  message: string;
  /** Absolute paths of the files that disagree. */
  files: string[];
  /** The two counts, when the problem is a count (`expected` from catalog.json). */
  expected?: number;
  found?: number;
}

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;

/** Up to 5 names, then how many more. */
function some(names: readonly string[]): string {
  return names.length <= 5 ? names.join(', ') : `${names.slice(0, 5).join(', ')} and ${names.length - 5} more`;
}

/**
 * catalog.json against itself and against the operations files present (names only, nothing parsed): the
 * operation count is the sum of the domains' counts, every domain with operations has its file, and every file
 * is a domain catalog.json lists. `files` are the names under operations/ (`orders.json`).
 */
export function checkLayout(abs: string, meta: CatalogMeta, files: readonly string[]): IntegrityProblem | undefined {
  const metaPath = join(abs, 'catalog.json');
  const opsDir = join(abs, 'operations');
  if (!isCount(meta.operationCount)) {
    return { message: `${metaPath} has no operation count (operationCount: ${JSON.stringify(meta.operationCount) ?? 'missing'})`, files: [metaPath] };
  }
  if (!Array.isArray(meta.domains)) return { message: `${metaPath} has no list of domains`, files: [metaPath] };
  const bad = meta.domains.find((d) => typeof d?.name !== 'string' || !isCount(d.toolCount));
  if (bad !== undefined) {
    return { message: `${metaPath} lists a domain without a name or an operation count (${JSON.stringify(bad).slice(0, 120)})`, files: [metaPath] };
  }
  const sum = meta.domains.reduce((n, d) => n + d.toolCount, 0);
  if (sum !== meta.operationCount) {
    return {
      message: `${metaPath} counts ${meta.operationCount} operations, but its domains' counts add up to ${sum} (${some(meta.domains.map((d) => `${d.name} ${d.toolCount}`))})`,
      files: [metaPath],
      expected: meta.operationCount,
      found: sum,
    };
  }
  const present = new Set(files);
  const missing = meta.domains.filter((d) => d.toolCount > 0 && !present.has(`${d.name}.json`));
  if (missing.length > 0) {
    const first = missing[0] as { name: string; toolCount: number };
    return {
      message:
        `${metaPath} counts ${first.toolCount} operations in domain "${first.name}", but ${join(opsDir, `${first.name}.json`)} does not exist` +
        (missing.length > 1 ? ` (nor the files of ${some(missing.slice(1).map((d) => d.name))})` : ''),
      files: [metaPath, join(opsDir, `${first.name}.json`)],
      expected: first.toolCount,
      found: 0,
    };
  }
  const listed = new Set(meta.domains.map((d) => `${d.name}.json`));
  const stray = files.filter((f) => !listed.has(f));
  if (stray.length > 0) {
    return {
      message: `${join(opsDir, stray[0] as string)} holds a domain ${metaPath} does not list` + (stray.length > 1 ? ` (so do ${some(stray.slice(1))})` : ''),
      files: [join(opsDir, stray[0] as string), metaPath],
    };
  }
  return undefined;
}

/**
 * One parsed operations file against catalog.json: as many operations as its domain counts, each one an operation
 * (a name) of that domain. `file` is the name under operations/ (`orders.json`).
 */
export function checkOperationsFile(abs: string, meta: CatalogMeta, file: string, ops: readonly Operation[]): IntegrityProblem | undefined {
  const metaPath = join(abs, 'catalog.json');
  const path = join(abs, 'operations', file);
  const domain = file.replace(/\.json$/, '');
  const info = meta.domains.find((d) => d.name === domain);
  // (checkLayout ran first: a file is a listed domain's)
  const expected = info?.toolCount ?? 0;
  if (ops.length !== expected) {
    return {
      message: `${path} holds ${ops.length} operation${ops.length === 1 ? '' : 's'}, but ${metaPath} counts ${expected} in domain "${domain}" (${meta.operationCount} in all)`,
      files: [path, metaPath],
      expected,
      found: ops.length,
    };
  }
  for (const [i, op] of ops.entries()) {
    if (op === null || typeof op !== 'object' || typeof op.name !== 'string') {
      return { message: `${path} entry ${i} is not an operation (it has no name)`, files: [path] };
    }
    if (op.domain !== domain) {
      return {
        message: `${path} holds ${JSON.stringify(op.name)} of domain ${JSON.stringify(op.domain)}, but ${metaPath} puts domain "${domain}" there (each domain's operations are in operations/<domain>.json)`,
        files: [path, metaPath],
      };
    }
  }
  return undefined;
}

/** Every operations file parsed: their total against catalog.json's operation count. */
export function checkTotal(abs: string, meta: CatalogMeta, total: number): IntegrityProblem | undefined {
  if (total === meta.operationCount) return undefined;
  const metaPath = join(abs, 'catalog.json');
  return {
    message: `${metaPath} counts ${meta.operationCount} operations, but the files under ${join(abs, 'operations')} hold ${total}`,
    files: [metaPath, join(abs, 'operations')],
    expected: meta.operationCount,
    found: total,
  };
}

/** REGISTRY_INVALID for files that disagree: the problem found above, and the import that writes them whole. */
export function disagree(abs: string, meta: CatalogMeta, problem: IntegrityProblem): AppError {
  const source = typeof meta.source === 'string' && meta.source !== '' ? meta.source : '<spec>';
  // the command only where it would write this very folder (<out>/<name>)
  const command = basename(abs) === meta.name ? ` (api-catalog import ${source} --name ${meta.name} --out ${dirname(abs)})` : '';
  return new AppError(
    'REGISTRY_INVALID',
    `catalog: the registry's files disagree: ${problem.message}; refusing to serve it. Re-run the import, which writes a registry whole${command}, or put the previous folder back`,
    { details: { files: problem.files, ...(problem.expected !== undefined ? { expected: problem.expected, found: problem.found } : {}) } },
  );
}
