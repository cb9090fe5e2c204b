// The dependency rules of docs/DESIGN.md, checked by scanning every import (static and dynamic) under src/.
// A layer may import only the layers its row allows; the MCP SDK only in src/server (never its core/, which
// the CLI shares, nor its explorer/ page); swagger-parser only in src/importer; nothing at run time imports the importer.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, test } from 'vitest';
import { REPO_ROOT } from './helpers/mcp.js';

const SRC = join(REPO_ROOT, 'src');

/** Layer of a file under src/: the first folder, or the top-level file name without .ts. */
function layerOf(file: string): string {
  const rel = relative(SRC, file).split(sep);
  if (rel[0] === 'server' && rel[1] === 'core') return 'server/core';
  if (rel[0] === 'server' && rel[1] === 'explorer') return 'server/explorer';
  return rel.length === 1 ? (rel[0] as string).replace(/\.ts$/, '') : (rel[0] as string);
}

/**
 * DESIGN.md "Layers and dependency rules" (config and logger are top-level helpers of the server and CLI; crypto and
 * startup-marks are leaf helpers of the start-up path).
 */
const ALLOWED: Record<string, string[]> = {
  types: [],
  errors: [],
  logger: ['secret-patterns'],
  'secret-patterns': [],
  'instruction-patterns': [],
  'did-you-mean': [],
  crypto: [],
  'startup-marks': [],
  config: ['errors', 'did-you-mean'],
  net: [],
  schema: ['types', 'errors'],
  importer: ['types', 'errors', 'schema', 'net', 'instruction-patterns'],
  registry: ['types', 'errors', 'crypto'],
  search: ['types', 'errors', 'registry', 'embeddings'],
  embeddings: ['types', 'errors', 'logger'],
  execution: ['types', 'errors', 'schema', 'registry', 'net', 'did-you-mean'],
  state: ['types', 'errors', 'logger', 'crypto'],
  'server/core': ['types', 'errors', 'schema', 'registry', 'search', 'execution', 'config', 'logger', 'embeddings', 'crypto', 'startup-marks', 'net', 'instruction-patterns'],
  server: ['types', 'errors', 'schema', 'registry', 'search', 'execution', 'config', 'logger', 'server/core', 'server/explorer', 'embeddings', 'state', 'crypto', 'startup-marks'],
  'server/explorer': ['types', 'errors', 'schema', 'registry', 'search', 'execution', 'config', 'logger', 'server/core', 'server'],
  cli: ['types', 'errors', 'schema', 'registry', 'search', 'execution', 'config', 'logger', 'server/core', 'server', 'importer', 'embeddings', 'state', 'startup-marks', 'net', 'did-you-mean'],
};

/** Packages only one layer may use. */
const PACKAGE_OWNERS: Array<{ pkg: RegExp; layers: string[] }> = [
  { pkg: /^@modelcontextprotocol\/(sdk|server|client|core|node)(\/|$)/, layers: ['server'] },
  { pkg: /^@apidevtools\/swagger-parser/, layers: ['importer'] },
  { pkg: /^ioredis(\/|$)/, layers: ['state'] },
];

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') ? [p] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  const re = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;
  for (const m of text.matchAll(re)) out.push((m[1] ?? m[2] ?? m[3]) as string);
  return out;
}

const files = walk(SRC);

describe('architecture (docs/DESIGN.md dependency rules)', () => {
  test('the scan finds the layers and their imports', () => {
    const layers = new Set(files.map(layerOf));
    for (const l of ['types', 'errors', 'registry', 'server', 'server/core', 'server/explorer', 'cli']) expect(layers.has(l)).toBe(true);
    expect(importsOf(join(SRC, 'server', 'create-server.ts'))).toContain('@modelcontextprotocol/server');
  });

  test('every relative import stays within the layers its row allows', () => {
    const violations: string[] = [];
    for (const file of files) {
      const from = layerOf(file);
      const allowed = ALLOWED[from];
      if (!allowed) {
        violations.push(`${relative(REPO_ROOT, file)}: layer ${from} has no row in the rules`);
        continue;
      }
      for (const spec of importsOf(file)) {
        if (!spec.startsWith('.')) continue;
        const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
        if (!target.startsWith(SRC + sep)) {
          violations.push(`${relative(REPO_ROOT, file)} imports ${spec} outside src/`);
          continue;
        }
        const to = layerOf(target);
        if (to !== from && !allowed.includes(to)) violations.push(`${relative(REPO_ROOT, file)} (${from}) imports ${spec} (${to})`);
      }
    }
    expect(violations).toEqual([]);
  });

  test('the MCP SDK only in src/server (not its core or explorer), swagger-parser only in src/importer', () => {
    const violations: string[] = [];
    for (const file of files) {
      const layer = layerOf(file);
      for (const spec of importsOf(file)) {
        for (const rule of PACKAGE_OWNERS) {
          if (rule.pkg.test(spec) && !rule.layers.includes(layer)) violations.push(`${relative(REPO_ROOT, file)} imports ${spec}`);
        }
      }
    }
    expect(violations).toEqual([]);
  });

  test('nothing run-time (search, execution, server, registry) imports the importer', () => {
    const offenders = files.filter(
      (f) => ['search', 'execution', 'server', 'server/core', 'server/explorer', 'registry'].includes(layerOf(f)) && importsOf(f).some((s) => /\/importer\//.test(s)),
    );
    expect(offenders.map((f) => relative(REPO_ROOT, f))).toEqual([]);
  });
});
