// The files the search-quality gate reads: every query set of the repository (test/fixtures/search and the held-out
// copies in test/fixtures/eval), each catalog's search fixture or committed registry (test/fixtures/search/specs.json
// says which), and the baseline. Shared by test/search/quality-gate.test.ts and scripts/search-gate.mjs.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../errors.js';
import { loadCatalog } from '../registry/catalog.js';
import type { DomainInfo, Operation } from '../types.js';
import { parseQueryFile, type EvalQuery } from './eval.js';
import { fixtureOperations, readFixture } from './fixtures.js';

/** The folders of the query sets, relative to the repository root; `test/fixtures/eval` is held out. */
export const SET_FOLDERS = ['test/fixtures/search', 'test/fixtures/eval'] as const;
/** The committed baseline, relative to the repository root. */
export const BASELINE_FILE = 'test/fixtures/search/gate/baseline.jsonl';
/** The search fixtures' folder, relative to the repository root. */
export const FIXTURE_FOLDER = 'test/fixtures/search/catalogs';

/** Every query set file: `{ set: 'queries-zoom-agent', file, queries }`, in set-name order. */
export function readQuerySets(root: string): Array<{ set: string; file: string; queries: EvalQuery[] }> {
  const out: Array<{ set: string; file: string; queries: EvalQuery[] }> = [];
  for (const folder of SET_FOLDERS) {
    for (const name of readdirSync(join(root, folder)).filter((n) => /^queries-.+\.jsonl$/.test(n)).sort()) {
      const file = join(folder, name);
      out.push({ set: name.replace(/\.jsonl$/, ''), file, queries: parseQueryFile(readFileSync(join(root, file), 'utf8'), file) });
    }
  }
  return out.sort((a, b) => (a.set < b.set ? -1 : a.set > b.set ? 1 : 0));
}

/** Held-out catalogs (specs.json `heldOut`): their sets, and every set of test/fixtures/eval, are never tuned on. */
export function heldOutCatalogs(root: string): Set<string> {
  const manifest = JSON.parse(readFileSync(join(root, 'test/fixtures/search/specs.json'), 'utf8')) as { heldOut?: string[] };
  return new Set(manifest.heldOut ?? []);
}

/** A catalog's operations and domains: its search fixture, else the committed registry specs.json names. */
export function readGateCatalog(root: string, catalog: string): { operations: Operation[]; domains: DomainInfo[] } {
  const fixture = join(root, FIXTURE_FOLDER, `${catalog}.json.gz`);
  if (existsSync(fixture)) {
    const f = readFixture(fixture);
    return { operations: fixtureOperations(f), domains: f.domains };
  }
  const manifest = JSON.parse(readFileSync(join(root, 'test/fixtures/search/specs.json'), 'utf8')) as { registries?: Record<string, string> };
  const dir = manifest.registries?.[catalog];
  if (dir === undefined || !existsSync(join(root, dir, 'catalog.json'))) {
    throw new AppError('CONFIG_INVALID', `search gate: no fixture ${fixture} and no committed registry for catalog ${JSON.stringify(catalog)}; add its spec to test/fixtures/search/specs.json and run \`npm run search:fixtures\``);
  }
  const c = loadCatalog(join(root, dir));
  return { operations: [...c.operations], domains: [...c.meta.domains] };
}

/**
 * The group a run is reported in: held-out or tuning (a set of test/fixtures/eval, or whose catalogs are all held
 * out, is held out), the user's words or agent calls (lines with a domain or keywords), without the domain, typos.
 */
export function gateGroup(set: { file: string; queries: readonly EvalQuery[] }, run: string, heldOut: ReadonlySet<string>): string {
  const held = set.file.startsWith('test/fixtures/eval') || set.queries.every((q) => heldOut.has(q.catalog));
  const agent = set.queries.some((q) => q.domain !== undefined || q.keywords !== undefined);
  const style = agent ? (run.includes(' (no domain)') ? 'agent calls without the domain' : 'agent calls') : "the user's words";
  return `${held ? 'held-out' : 'tuning'}, ${style}${run.endsWith(' (typos)') ? ', typos' : ''}`;
}
